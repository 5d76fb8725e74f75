import fs from "node:fs/promises";
import path from "node:path";

/** The swagger-ui-dist files the reference page needs, served from node_modules (no CDN). */
const ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "reference.js": "text/javascript; charset=utf-8",
};

/** The page's own start-up script; a file rather than inline so a strict CSP can hold. */
const REFERENCE_SCRIPT = `window.addEventListener("load", function () {
  window.SwaggerUIBundle({ url: "/api/openapi.json", dom_id: "#reference", deepLinking: true, tryItOutEnabled: false });
});\n`;

export async function referenceAsset(file: string): Promise<Response | null> {
  const type = ASSETS[file];
  if (!type) return null;
  const body =
    file === "reference.js"
      ? REFERENCE_SCRIPT
      : await fs.readFile(path.join(/* turbopackIgnore: true */ process.cwd(), "node_modules", "swagger-ui-dist", file));
  return new Response(body, { headers: { "content-type": type, "cache-control": "public, max-age=86400" } });
}

export const REFERENCE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Gatehouse API reference</title>
<link rel="stylesheet" href="/api/reference/assets/swagger-ui.css">
</head>
<body>
<noscript><p>The interactive reference needs JavaScript. The raw document is at <a href="/api/openapi.json">/api/openapi.json</a>.</p></noscript>
<main id="reference" aria-label="API reference"></main>
<script src="/api/reference/assets/swagger-ui-bundle.js"></script>
<script src="/api/reference/assets/reference.js"></script>
</body>
</html>
`;
