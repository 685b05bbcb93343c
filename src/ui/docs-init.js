// Starts Swagger UI on this server's OpenAPI document (relative URLs, so "Try it out" calls the server that served the page).
// Under /worlds/<id> the page shows that world's document (its `servers` entry points "Try it out" at the world).
const base = /^\/worlds\/[^/]+/.exec(location.pathname)?.[0] ?? '';
document.querySelector('.back a')?.setAttribute('href', `${base}/`);
window.ui = SwaggerUIBundle({
  url: `${base}/api/openapi.json`,
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  persistAuthorization: true,
  displayRequestDuration: true,
  docExpansion: 'none',
  filter: true,
  validatorUrl: null, // no badge from an outside validator: everything stays on this server
});
