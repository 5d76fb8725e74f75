/**
 * English copy of the operator dashboard. The Danish file must have exactly these
 * keys (checked by its `DashboardMessages` type). Error codes from the operations
 * reuse the hosted pages' wording (lib/hosted/i18n), so one code reads the same everywhere.
 */
export const en = {
  productName: "Gatehouse",
  dashboardName: "Dashboard",
  common: {
    skipToContent: "Skip to content",
    signOut: "Sign out",
    mainNavigation: "Dashboard",
    signedInAs: "Signed in as",
  },
  roles: {
    owner: "Owner",
    admin: "Admin",
    viewer: "Viewer",
  },
  signIn: {
    title: "Sign in to the dashboard",
    lead: "Operators only. Your administrator gives you a one-time link to set your password.",
    submit: "Sign in",
    signedOut: "You are signed out.",
    passwordSet: "Your password is saved. Sign in with it.",
    sessionEnded: "Your session has ended. Sign in again.",
    withSso: "Sign in with staff SSO",
    or: "or",
    ssoRefused: "Single sign-on did not let you in: your address is not an operator's here, or your provider did not verify it. Ask an owner.",
    ssoFailed: "Single sign-on did not work. Try again, or sign in with your password.",
  },
  setPassword: {
    title: "Choose your password",
    lead: "You are setting up dashboard access for {email}.",
    hint: "At least {min} characters. Use a password manager.",
    submit: "Save password and sign in",
    invalidTitle: "This link no longer works",
    invalidBody: "Sign-in links work once and expire after 24 hours. Ask an owner for a new one (npm run cli -- operator link --email …), or sign in if you already chose a password.",
    toSignIn: "Go to sign-in",
  },
  nav: {
    overview: "Overview",
    users: "Users",
    apiKeys: "API keys",
    applications: "Applications",
  },
  environments: {
    label: "Environment",
    switch: "Switch",
    none: "No environments yet",
    noneBody: "Create one with npm run cli -- env create --name NAME.",
    development: "Development",
    production: "Production",
  },
  home: {
    title: "Overview",
    users: "Users",
    usersHint: "Active and banned users of this environment",
    details: "Details",
    publishableKey: "Publishable key",
    frontendHosts: "Frontend hosts",
    application: "Application",
    kind: "Kind",
    none: "None",
  },
  errors: {
    forbidden: "Your role cannot see this.",
    notFound: "This environment no longer exists. Choose another.",
  },
};

export type DashboardMessages = typeof en;
