// Starts Swagger UI on /docs (app/web/apidocs.py): FastAPI's own page does this in an inline
// script, which the site's Content-Security-Policy does not run. No validator badge: it would
// send the API's description to a third party.
/* global SwaggerUIBundle */
const root = document.getElementById("swagger-ui");
window.ui = SwaggerUIBundle({
  url: root.dataset.openapi,
  dom_id: "#swagger-ui",
  layout: "BaseLayout",
  deepLinking: true,
  showExtensions: true,
  showCommonExtensions: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
});
