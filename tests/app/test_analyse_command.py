"""``cardroom analyse RECORD`` (docs/analysis.md): the analysis of a record as one JSON object on
standard output, ``-`` for standard input, a broken record refused as ``cardroom replay``
refuses it."""

import io
import json
import os
import pathlib
import subprocess
import sys

from app.cli import main
from tests.engine.test_conformance import record_path

ROOT = pathlib.Path(__file__).resolve().parents[2]


def record_text(name: str = "marjolet-05") -> str:
    return record_path(name).read_text()


def test_analyse_a_file_prints_the_analysis_as_one_json_object(tmp_path, capsys):
    path = tmp_path / "match.json"
    path.write_text(record_text())
    assert main(["analyse", "--simulations", "2", "--seed", "5", str(path)]) == 0
    out, err = capsys.readouterr()
    assert err == "" and out.count("\n") == 1
    analysis = json.loads(out)
    assert analysis["format"] == "cardroom-analysis/2" and analysis["game"] == "marjolet"
    assert analysis["quality"] == {"simulations": 2, "seed": 5}
    record = json.loads(record_text())
    assert [len(d["decisions"]) for d in analysis["deals"]] == \
        [len(d["actions"]) for d in record["deals"]]
    # the same seed, the same analysis
    assert main(["analyse", "--simulations", "2", "--seed", "5", str(path)]) == 0
    assert capsys.readouterr().out == out


def test_analyse_dash_reads_standard_input(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(record_text("big_mariage-06")))
    assert main(["analyse", "--simulations", "1", "--indent", "1", "-"]) == 0
    out = capsys.readouterr().out
    assert json.loads(out)["game"] == "big_mariage" and "\n " in out


def test_analyse_a_broken_record_prints_one_line_and_nothing_else(tmp_path, capsys):
    path = tmp_path / "broken.json"
    path.write_text(record_text("marjolet-08"))
    assert main(["analyse", "--simulations", "1", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("deal 1, action ")
    path.write_text("{not json")
    assert main(["analyse", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("deal -, action -, seat -, -: not JSON")
    assert main(["analyse", str(tmp_path / "missing.json")]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_the_command_analyses_alike_in_every_process():
    """Another process (another hash seed: sets and dicts of strings in another order) gives
    the same analysis of the same record and seed: a server's processes agree."""
    outputs = []
    for hash_seed in ("1", "2"):
        done = subprocess.run(
            [sys.executable, "-m", "app.cli", "analyse", "--simulations", "2", "-"],
            input=record_text("black_maria-05"), capture_output=True, text=True, cwd=ROOT,
            timeout=300, env={**os.environ, "PYTHONHASHSEED": hash_seed})
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout)
    assert json.loads(outputs[0])["game"] == "black_maria"
    assert outputs[0] == outputs[1]
