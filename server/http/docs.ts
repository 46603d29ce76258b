// The API docs page at /docs: Swagger UI (swagger-ui-dist, served from the package itself, so it works
// offline and behind a firewall) rendering /openapi.json. Its files are read once at start.
import Router from '@koa/router';
import type { Context } from 'koa';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const require = createRequire(import.meta.url);

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>alarm-hub API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

// No inline script: the page keeps a strict Content-Security-Policy.
const INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  displayOperationId: true,
  defaultModelsExpandDepth: 0,
  docExpansion: 'list',
  filter: true,
  tryItOutEnabled: false,
});
`;

const CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'";

/** The router of /docs and its assets. */
export function docsRoutes(): Router {
  const dist = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  const files: Record<string, { body: string | Buffer; type: string }> = {
    '/docs': { body: PAGE, type: 'text/html; charset=utf-8' },
    '/docs/init.js': { body: INIT, type: 'application/javascript; charset=utf-8' },
    '/docs/swagger-ui.css': {
      body: fs.readFileSync(path.join(dist, 'swagger-ui.css')),
      type: 'text/css; charset=utf-8',
    },
    '/docs/swagger-ui-bundle.js': {
      body: fs.readFileSync(path.join(dist, 'swagger-ui-bundle.js')),
      type: 'application/javascript; charset=utf-8',
    },
  };
  const router = new Router();
  for (const [route, file] of Object.entries(files)) {
    router.get(route, (ctx: Context) => {
      ctx.set('Content-Security-Policy', CSP);
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Cache-Control', 'no-cache');
      ctx.type = file.type;
      ctx.body = file.body;
    });
  }
  router.get('/docs/', (ctx) => ctx.redirect('/docs'));
  return router;
}
