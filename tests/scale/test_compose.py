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


def test_nginx_serves_https_and_redirects_http():
    """The proxy ends TLS with the certificate the compose file mounts, redirects plain HTTP
    (but its health check and Let's Encrypt's challenges), keeps the app's security headers and
    gives its own answers the same, and tells the apps the client's own address, which they
    believe (tests/scale/test_tls.py runs the file with nginx itself)."""
    services = compose()["services"]
    with open(os.path.join(ROOT, "deploy", "nginx.conf")) as f:
        conf = f.read()
    servers = re.findall(r"\nserver\s*\{(.*?)\n\}", conf, re.S)
    plain = next(s for s in servers if re.search(r"listen\s+80;", s))
    tls = next(s for s in servers if re.search(r"listen\s+443\s+ssl;", s))
    assert re.search(r"location / \{\s*return 301 https://\$host\$request_uri;", plain)
    assert "location = /nginx-health" in plain and "/.well-known/acme-challenge/" in plain
    assert "proxy_pass" not in plain
    cert = re.search(r"ssl_certificate\s+(\S+);", tls).group(1)
    key = re.search(r"ssl_certificate_key\s+(\S+);", tls).group(1)
    mounts = {v.split(":")[-2]: v for v in services["nginx"]["volumes"]}
    assert os.path.dirname(cert) == os.path.dirname(key) == "/etc/nginx/certs"
    assert mounts["/etc/nginx/certs"].startswith("${CERT_DIR:-./deploy/certs}")
    assert set(services["nginx"]["ports"]) == {"80:80", "443:443"}
    # the headers: nginx keeps the app's and gives its own answers the same; HSTS on HTTPS
    added = dict(re.findall(r"\nadd_header (\S+) \$(\w+) always;", conf))
    assert set(added) == {"Content-Security-Policy", "X-Content-Type-Options",
                          "X-Frame-Options", "Referrer-Policy", "Strict-Transport-Security"}
    for header, variable in added.items():
        source = "https" if header == "Strict-Transport-Security" else \
            "upstream_http_" + header.lower().replace("-", "_")
        assert re.search(rf"map \${source} \${variable} \{{", conf), header
    assert "add_header" not in "".join(servers), "a server's add_header drops the file's"
    assert re.search(r'map \$https \$hsts \{\s*on\s+"max-age=\d+";\s*default \'\';', conf)
    for block in re.findall(r"location\s+/\S*\s*\{([^}]*)\}", tls):
        if "proxy_pass" in block:
            assert "proxy_set_header X-Forwarded-For $remote_addr;" in block
            assert "proxy_set_header X-Forwarded-Proto $scheme;" in block
            assert "proxy_set_header Host $http_host;" in block
    for name in (s for s in services if s.startswith("app")):
        assert services[name]["environment"]["FORWARDED_ALLOW_IPS"] == "*"
        assert "ports" not in services[name], "the apps must be reachable through nginx only"
    assert os.access(os.path.join(ROOT, "deploy", "make-local-cert.sh"), os.X_OK)
