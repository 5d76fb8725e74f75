-- /authorize looks up whether the presented browser token already has a live flow
-- (lib/oauth/flows.ts browserToken). Without an index that lookup scans every flow
-- row, so anyone able to hit /authorize could make each request cost a table scan.
-- Partial: consumed flows are never asked about.
CREATE INDEX "oauth_flows_browser_idx" ON "oauth_flows" USING btree ("browser_hash") WHERE consumed_at is null;