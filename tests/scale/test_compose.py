"""docker-compose.yml and deploy/nginx.conf: the production topology's structure (docker
does not run in CI; tests/scale/test_faults.py starts the same topology as processes)."""

from __future__ import annotations

import os
import re

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def compose() -> dict:
    with open(os.path.join(ROOT, "docker-compose.yml")) as f:
        return yaml.safe_load(f)


def test_services_and_health_checks():
    services = compose()["services"]
    apps = [name for name, s in services.items() if name.startswith("app")]
    assert len(apps) >= 2
    for name in ("postgres", "redis", "nginx", *apps):
        assert "healthcheck" in services[name], f"{name} has no healthcheck"
        assert services[name]["healthcheck"]["test"]
    for name in apps:
        service = services[name]
        env = service["environment"]
        assert env["DATABASE_URL"].startswith("postgresql+psycopg://")
        assert "@postgres:5432/" in env["DATABASE_URL"]
        assert env["REDIS_URL"].startswith("redis://redis:6379")
        needs = service["depends_on"]
        assert needs["postgres"]["condition"] == "service_healthy"
        assert needs["redis"]["condition"] == "service_healthy"
        assert needs["migrate"]["condition"] == "service_completed_successfully"
        assert "/api/health" in " ".join(service["healthcheck"]["test"])
    nginx = services["nginx"]
    assert all(nginx["depends_on"][a]["condition"] == "service_healthy" for a in apps)
    assert any("nginx.conf" in v for v in nginx["volumes"])
    assert "upgrade" in " ".join(services["migrate"]["command"])


def test_nginx_passes_websockets_to_every_app():
    services = compose()["services"]
    apps = [name for name in services if name.startswith("app")]
    with open(os.path.join(ROOT, "deploy", "nginx.conf")) as f:
        conf = f.read()
    upstream = re.search(r"upstream\s+(\w+)\s*\{([^}]*)\}", conf)
    assert upstream, "no upstream block"
    servers = re.findall(r"server\s+([\w.-]+):8000", upstream.group(2))
    assert sorted(servers) == sorted(apps)
    ws = re.search(r"location\s+/ws/\s*\{([^}]*)\}", conf)
    assert ws, "no /ws/ location"
    block = ws.group(1)
    assert f"proxy_pass http://{upstream.group(1)}" in block
    assert "proxy_http_version 1.1" in block
    assert re.search(r"proxy_set_header\s+Upgrade\s+\$http_upgrade", block)
    assert re.search(r"proxy_set_header\s+Connection\s+\$connection_upgrade", block)
    assert re.search(r"map\s+\$http_upgrade\s+\$connection_upgrade", conf)


def test_dockerfile_serves_without_migrating():
    with open(os.path.join(ROOT, "deploy", "Dockerfile")) as f:
        text = f.read()
    assert "cardroom" in text and "--no-migrate" in text and "0.0.0.0" in text
