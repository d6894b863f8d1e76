"""The REST API's reference page, ``/docs`` (Swagger UI), served from this server.

FastAPI's own pages load Swagger UI and ReDoc from a CDN and start Swagger UI with an inline
script. Under the site's Content-Security-Policy (:mod:`app.web.security`) neither would run,
and allowing them would run a third party's current code in this origin, where the browser
keeps the player key and the seat tokens. So Swagger UI's bundle comes from the pinned
``fastapi-offline`` package (a verbatim copy of swagger-ui-dist), under ``/docs/assets/``, and
is started by ``static/js/apidocs.js``: the page works without the internet, and every script
it runs is a file of this server. There is no ``/redoc``: one reference is enough, and ReDoc
fetches its maker's logo from a third party on every view.
"""

from __future__ import annotations

from html import escape
from importlib.resources import files

from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

ASSETS = "/docs/assets"


def install(app: FastAPI) -> None:
    """Serve ``/docs`` and its assets (``app`` made with ``docs_url=None`` and
    ``redoc_url=None``)."""
    assets = files("fastapi_offline") / "static"
    app.mount(ASSETS, StaticFiles(directory=str(assets)), name="docs-assets")
    title = escape(app.title)

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui() -> HTMLResponse:
        return HTMLResponse(f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} — API</title>
<link rel="stylesheet" href="{ASSETS}/swagger-ui.css">
<link rel="icon" href="{ASSETS}/favicon.png">
</head>
<body>
<div id="swagger-ui" data-openapi="{app.openapi_url}"></div>
<script src="{ASSETS}/swagger-ui-bundle.js"></script>
<script src="/static/js/apidocs.js"></script>
</body>
</html>""")

