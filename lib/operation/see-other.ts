/**
 * A handler result that sends a browser elsewhere (303 See Other) instead of a JSON
 * body: for emailed links that people open in a browser rather than call from code.
 */
export class SeeOther {
  constructor(readonly location: string) {}
}

/** True when the request comes from a browser navigating, not from code asking for JSON. */
export function wantsHtml(request: Request): boolean {
  const accept = request.headers.get("accept") ?? "";
  return accept.includes("text/html") && !accept.includes("application/json");
}
