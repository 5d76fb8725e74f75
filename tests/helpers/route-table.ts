// The route table moved to lib/http so the production fast path shares it; tests keep this import path.
export { resolveRoute } from "@/lib/http/route-table";
