// Starts Swagger UI on this server's OpenAPI document (relative URLs, so "Try it out" calls the server that served the page).
window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
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
