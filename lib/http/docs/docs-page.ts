import { swaggerUiVersion } from "./swagger-assets";

export const DOCS_PATH = "/docs";
const OPENAPI_URL = "/v1/openapi.json";

/** The reference page itself, which gets the hosted pages' CSP; its assets carry headers of their own. */
export const isDocsPagePath = (pathname: string) => pathname === DOCS_PATH;

// swagger-ui's options (all JSON), in its base layout (no top bar to load other documents from). validatorUrl:
// null, so no layout ever shows the online validator's badge, an image from validator.swagger.io; no
// queryConfigEnabled, so `?url=` cannot make the page load another document. No persistAuthorization: a key
// pasted into Authorize stays in the page's memory only, never in this origin's localStorage (which the
// dashboard and the public pages share), and is gone when the tab closes or reloads.
const OPTIONS = {
  url: OPENAPI_URL,
  dom_id: "#swagger-ui",
  validatorUrl: null,
  deepLinking: true,
  persistAuthorization: false,
  displayRequestDuration: true,
};

// Try it out calls the service that served this page, whatever host the document's `servers` names
// (PUBLIC_BASE_URL may spell this origin differently, e.g. localhost for 127.0.0.1): the page's
// connect-src is 'self', and the same process answers /v1 on every address it is reached at.
const START = `window.ui = SwaggerUIBundle(Object.assign(${JSON.stringify(OPTIONS)}, {
  requestInterceptor: function (request) {
    var url = new URL(request.url, location.href);
    if (url.pathname.indexOf("/v1/") === 0) request.url = location.origin + url.pathname + url.search;
    return request;
  },
}));`;

/**
 * The nonce of this response's CSP, which the web server puts on the request (lib/http/server/page-security.ts)
 * as Next reads it for its own pages; null when served without it (`next start`), where no CSP applies.
 */
export function nonceOf(csp: string | null): string | null {
  return csp?.match(/'nonce-([A-Za-z0-9+/=]+)'/)?.[1] ?? null;
}

/** The page: swagger-ui's bundle from this service, then the one call that starts it, both with the nonce. */
export function docsPageHtml(nonce: string | null): string {
  const attr = nonce ? ` nonce="${nonce}"` : "";
  const asset = (file: string) => `${DOCS_PATH}/assets/${file}?v=${swaggerUiVersion()}`;
  return (
    `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference</title>
<link rel="icon" href="/favicon.svg">
<link rel="stylesheet" href="${asset("swagger-ui.css")}">
</head>
<body>
<noscript><p>This page needs JavaScript. ` +
    `The OpenAPI document is at <a href="${OPENAPI_URL}">${OPENAPI_URL}</a>.</p></noscript>
<div id="swagger-ui"></div>
<script${attr} src="${asset("swagger-ui-bundle.js")}"></script>
<script${attr}>${START}</script>
</body>
</html>
`
  );
}

/** GET /docs. No Cache-Control of its own: the web server's security headers say no-store. */
export function docsPageResponse(csp: string | null): Response {
  return new Response(docsPageHtml(nonceOf(csp)), { headers: { "Content-Type": "text/html; charset=utf-8" } });
}
