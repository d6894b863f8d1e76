"""app.storage.db: the JSON text of columns and messages."""

from __future__ import annotations

import pytest

from app.encoding import json_text


def test_json_text_is_compact_and_writes_number_keys_as_strings_as_the_stdlib_does():
    assert json_text({"a": [1, None, "é"], "b": {"c": True}}) == '{"a":[1,null,"é"],"b":{"c":true}}'
    assert json_text({"seat": {0: "QS", 2: ["AH"]}}) == '{"seat":{"0":"QS","2":["AH"]}}'

def test_json_text_refuses_what_json_cannot_hold():
    with pytest.raises(TypeError):
        json_text({"when": object()})
    with pytest.raises(TypeError):
        json_text({(1, 2): "tuple key"})
