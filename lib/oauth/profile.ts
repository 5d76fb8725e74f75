export interface ProviderProfile {
  subject: string;            // the provider's stable user id (OIDC `sub`, GitHub numeric id as string)
  email: string | null;       // lower-cased
  emailVerified: boolean;     // only true when the provider asserts it (OIDC email_verified === true, GitHub primary+verified)
  name: string | null; firstName: string | null; lastName: string | null;
  picture: string | null; username: string | null;
}
