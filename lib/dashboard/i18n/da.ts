import type { DashboardMessages } from "./en";

/** Danish copy of the operator dashboard; the same keys as en.ts. */
export const da: DashboardMessages = {
  productName: "Gatehouse",
  dashboardName: "Kontrolpanel",
  common: {
    skipToContent: "Gå til indholdet",
    signOut: "Log ud",
    mainNavigation: "Kontrolpanel",
    signedInAs: "Logget ind som",
  },
  roles: {
    owner: "Ejer",
    admin: "Administrator",
    viewer: "Læser",
  },
  signIn: {
    title: "Log ind på kontrolpanelet",
    lead: "Kun for operatører. Din administrator giver dig et engangslink, hvor du vælger din adgangskode.",
    submit: "Log ind",
    signedOut: "Du er logget ud.",
    passwordSet: "Din adgangskode er gemt. Log ind med den.",
    sessionEnded: "Din session er udløbet. Log ind igen.",
    withSso: "Log ind med medarbejder-SSO",
    or: "eller",
    ssoRefused: "Single sign-on gav dig ikke adgang: din adresse tilhører ingen operatør her, eller din udbyder har ikke bekræftet den. Spørg en ejer.",
    ssoFailed: "Single sign-on virkede ikke. Prøv igen, eller log ind med din adgangskode.",
  },
  setPassword: {
    title: "Vælg din adgangskode",
    lead: "Du opretter adgang til kontrolpanelet for {email}.",
    hint: "Mindst {min} tegn. Brug en adgangskodeadministrator.",
    submit: "Gem adgangskode og log ind",
    invalidTitle: "Linket virker ikke længere",
    invalidBody: "Et login-link virker én gang og udløber efter 24 timer. Bed en ejer om et nyt (npm run cli -- operator link --email …), eller log ind, hvis du allerede har valgt en adgangskode.",
    toSignIn: "Gå til log ind",
  },
  nav: {
    overview: "Oversigt",
    users: "Brugere",
    apiKeys: "API-nøgler",
    applications: "Applikationer",
  },
  environments: {
    label: "Miljø",
    switch: "Skift",
    none: "Ingen miljøer endnu",
    noneBody: "Opret et med npm run cli -- env create --name NAVN.",
    development: "Udvikling",
    production: "Produktion",
  },
  home: {
    title: "Oversigt",
    users: "Brugere",
    usersHint: "Aktive og udelukkede brugere i dette miljø",
    details: "Detaljer",
    publishableKey: "Offentlig nøgle",
    frontendHosts: "Frontend-værter",
    application: "Applikation",
    kind: "Type",
    none: "Ingen",
  },
  errors: {
    forbidden: "Din rolle giver ikke adgang til dette.",
    notFound: "Miljøet findes ikke længere. Vælg et andet.",
  },
};
