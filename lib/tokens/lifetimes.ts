/**
 * Token lifetimes, in seconds. The environment setting `sessions.tokenLifetimeSeconds`
 * ranges 30..3600; a JWT template may ask for up to a day (integrations such as
 * database gateways re-fetch rarely). The longest of them bounds how long a retired
 * signing key must stay published: until every token it signed has expired.
 */
export const MIN_TOKEN_LIFETIME_SECONDS = 30;
export const MAX_TEMPLATE_LIFETIME_SECONDS = 86_400;
export const MAX_SESSION_TOKEN_LIFETIME_SECONDS = 3600;

export const RETIRED_KEY_PUBLISH_SECONDS = Math.max(MAX_SESSION_TOKEN_LIFETIME_SECONDS, MAX_TEMPLATE_LIFETIME_SECONDS);
