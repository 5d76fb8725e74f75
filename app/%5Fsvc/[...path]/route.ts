import { notFoundHandlers } from "@/lib/http/not-found";

// Any other /_svc path — 404 problem+json
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = notFoundHandlers;
