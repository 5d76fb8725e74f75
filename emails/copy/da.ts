import type { EmailCopy, Invite } from "./types";

const invitedBy = ({ appName, organizationName, inviterName }: Invite) =>
  inviterName
    ? `${inviterName} har inviteret dig til at blive medlem af ${organizationName} på ${appName}`
    : `Du er inviteret til at blive medlem af ${organizationName} på ${appName}`;

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

export const da: EmailCopy = {
  languageTag: "da",
  layout: {
    sentBy: (appName) => `Denne e-mail er sendt af ${appName}.`,
    linkFallback: "Hvis knappen ikke virker, så åbn dette link:",
  },
  units: {
    minutes: (count) => plural(count, "minut", "minutter"),
    hours: (count) => plural(count, "time", "timer"),
    days: (count) => plural(count, "dag", "dage"),
  },
  sign_up_code: {
    subject: (appName) => `Din tilmeldingskode til ${appName}`,
    preview: (appName) => `Indtast koden for at færdiggøre din tilmelding til ${appName}.`,
    heading: "Bekræft din e-mailadresse",
    intro: (appName) => `Indtast denne kode i ${appName} for at færdiggøre oprettelsen af din konto:`,
    expiry: (duration) => `Koden udløber om ${duration}.`,
    notYou: "Hvis det ikke var dig, der forsøgte at tilmelde dig, kan du se bort fra denne e-mail. Der oprettes ingen konto uden koden.",
  },
  account_exists: {
    subject: (appName) => `Du har allerede en konto hos ${appName}`,
    preview: (appName) => `Nogen forsøgte at tilmelde sig ${appName} med denne e-mailadresse.`,
    heading: "Du har allerede en konto",
    intro: (appName) =>
      `Nogen, sandsynligvis dig, forsøgte at tilmelde sig ${appName} med denne e-mailadresse. Adressen hører allerede til en konto, så der blev ikke oprettet en ny.`,
    signIn: "Log ind",
    forgotPassword: "Har du glemt din adgangskode? Du kan vælge en ny:",
    resetPassword: "Nulstil adgangskode",
    notYou: "Hvis det ikke var dig, kan du se bort fra denne e-mail. Din konto er ikke blevet ændret.",
  },
  password_reset_code: {
    subject: (appName) => `Din kode til nulstilling af adgangskoden hos ${appName}`,
    preview: (appName) => `Indtast koden for at vælge en ny adgangskode til ${appName}.`,
    heading: "Nulstil din adgangskode",
    intro: (appName) => `Indtast denne kode i ${appName} for at vælge en ny adgangskode:`,
    expiry: (duration) => `Koden udløber om ${duration}.`,
    notYou: "Hvis du ikke har bedt om at nulstille din adgangskode, kan du se bort fra denne e-mail. Din adgangskode forbliver uændret.",
  },
  password_changed: {
    subject: (appName) => `Din adgangskode hos ${appName} er blevet ændret`,
    preview: (appName) => `Adgangskoden til din konto hos ${appName} er blevet ændret.`,
    heading: "Din adgangskode er blevet ændret",
    intro: (appName, when) => `Adgangskoden til din konto hos ${appName} blev ændret ${when}.`,
    ifYou: "Hvis det var dig, der foretog ændringen, behøver du ikke gøre mere.",
    notYou: "Hvis det ikke var dig, så nulstil din adgangskode med det samme, og log ud af de sessioner, du ikke genkender:",
    resetPassword: "Nulstil adgangskode",
  },
  email_added: {
    subject: (appName) => `En e-mailadresse er blevet tilføjet til din konto hos ${appName}`,
    preview: (appName) => `En ny e-mailadresse er blevet tilføjet til din konto hos ${appName}.`,
    heading: "En e-mailadresse er blevet tilføjet",
    intro: (appName, email, when) =>
      `Adressen ${email} blev tilføjet til din konto hos ${appName} ${when}. Når den er bekræftet, kan den bruges til at logge ind og til at nulstille din adgangskode.`,
    ifYou: "Hvis det var dig, der tilføjede den, behøver du ikke gøre mere.",
    notYou:
      "Hvis det ikke var dig, kan en anden være logget ind på din konto: nulstil din adgangskode med det samme, fjern derefter adressen, og log ud af de sessioner, du ikke genkender:",
    resetPassword: "Nulstil adgangskode",
  },
  primary_email_changed: {
    subject: (appName) => `Den primære e-mailadresse for din konto hos ${appName} er blevet ændret`,
    preview: (appName) => `Din konto hos ${appName} har fået en ny primær e-mailadresse.`,
    heading: "Din primære e-mailadresse er blevet ændret",
    intro: (appName, email, when) =>
      `Den ${when} blev ${email} den primære e-mailadresse for din konto hos ${appName}. E-mails om kontoen sendes nu dertil.`,
    ifYou: "Hvis det var dig, der foretog ændringen, behøver du ikke gøre mere.",
    notYou:
      "Hvis det ikke var dig, kan en anden være logget ind på din konto: nulstil din adgangskode med det samme, og log ud af de sessioner, du ikke genkender:",
    resetPassword: "Nulstil adgangskode",
  },
  mfa_enabled: {
    subject: (appName) => `Totrinsbekræftelse er slået til for din konto hos ${appName}`,
    preview: (appName) => `Din konto hos ${appName} beder nu om en kode fra din godkendelsesapp.`,
    heading: "Totrinsbekræftelse er slået til",
    intro: (appName, when) =>
      `Totrinsbekræftelse blev slået til for din konto hos ${appName} ${when}. Når du logger ind, skal du nu bruge din adgangskode og en kode fra din godkendelsesapp.`,
    ifYou: "Hvis det var dig, så gem dine gendannelseskoder et sikkert sted: med dem kan du komme ind, hvis du mister din telefon.",
    notYou:
      "Hvis det ikke var dig, kan en anden være logget ind på din konto: nulstil din adgangskode med det samme, og log ud af de sessioner, du ikke genkender:",
    resetPassword: "Nulstil adgangskode",
  },
  mfa_disabled: {
    subject: (appName) => `Totrinsbekræftelse er slået fra for din konto hos ${appName}`,
    preview: (appName) => `Din konto hos ${appName} beder ikke længere om en kode, når du logger ind.`,
    heading: "Totrinsbekræftelse er slået fra",
    intro: (appName, when) =>
      `Totrinsbekræftelse blev slået fra for din konto hos ${appName} ${when}. Når du logger ind, bliver du ikke længere bedt om en kode fra din godkendelsesapp, og dine gendannelseskoder virker ikke længere.`,
    ifYou: "Hvis det var dig, der slog den fra, behøver du ikke gøre mere.",
    notYou:
      "Hvis det ikke var dig, kan en anden være logget ind på din konto: nulstil din adgangskode med det samme, log ud af de sessioner, du ikke genkender, og slå totrinsbekræftelse til igen:",
    resetPassword: "Nulstil adgangskode",
  },
  recovery_codes_regenerated: {
    subject: (appName) => `Nye gendannelseskoder til din konto hos ${appName}`,
    preview: (appName) => `Der er lavet nye gendannelseskoder til din konto hos ${appName}; de gamle virker ikke længere.`,
    heading: "Dine gendannelseskoder er blevet udskiftet",
    intro: (appName, when) => `Der blev lavet nye gendannelseskoder til din konto hos ${appName} ${when}. De tidligere koder virker ikke længere.`,
    ifYou: "Hvis det var dig, så gem de nye koder et sikkert sted.",
    notYou:
      "Hvis det ikke var dig, kan en anden være logget ind på din konto: nulstil din adgangskode med det samme, og log ud af de sessioner, du ikke genkender:",
    resetPassword: "Nulstil adgangskode",
  },
  passkey_removed: {
    subject: (appName) => `En adgangsnøgle er blevet fjernet fra din konto hos ${appName}`,
    preview: (appName) => `En adgangsnøgle kan ikke længere bruges til at logge ind på din konto hos ${appName}.`,
    heading: "En adgangsnøgle er blevet fjernet",
    intro: (appName, when) => `En adgangsnøgle blev fjernet fra din konto hos ${appName} ${when}. Den kan ikke længere bruges til at logge ind.`,
    ifYou: "Hvis det var dig, der fjernede den, behøver du ikke gøre mere.",
    notYou:
      "Hvis det ikke var dig, kan en anden være logget ind på din konto: nulstil din adgangskode med det samme, og log ud af de sessioner, du ikke genkender:",
    resetPassword: "Nulstil adgangskode",
  },
  second_factors_reset: {
    subject: (appName) => `Totrinsbekræftelse er blevet nulstillet for din konto hos ${appName}`,
    preview: (appName) => `En administrator hos ${appName} har fjernet din godkendelsesapp, dine gendannelseskoder og dine adgangsnøgler.`,
    heading: "Dine ekstra faktorer er blevet nulstillet",
    intro: (appName, when) =>
      `En administrator hos ${appName} nulstillede totrinsbekræftelse for din konto ${when}: din godkendelsesapp, dine gendannelseskoder og dine adgangsnøgler virker ikke længere, og alle sessioner er logget ud.`,
    ifYou: "Hvis du bad om det, så log ind og slå totrinsbekræftelse til igen.",
    notYou: "Hvis du ikke bad om det, så kontakt applikationens support, og nulstil din adgangskode med det samme:",
    resetPassword: "Nulstil adgangskode",
  },
  passkey_added: {
    subject: (appName) => `En adgangsnøgle er blevet tilføjet til din konto hos ${appName}`,
    preview: (appName) => `En ny adgangsnøgle kan nu logge ind på din konto hos ${appName}.`,
    heading: "En adgangsnøgle er blevet tilføjet",
    intro: (appName, passkeyName, when) =>
      `Adgangsnøglen „${passkeyName}“ blev tilføjet til din konto hos ${appName} ${when}. Den kan logge ind på din konto uden adgangskode.`,
    ifYou: "Hvis det var dig, der tilføjede den, behøver du ikke gøre mere.",
    notYou:
      "Hvis det ikke var dig, kan en anden være logget ind på din konto: fjern adgangsnøglen med det samme, skift din adgangskode, og log ud af de sessioner, du ikke genkender:",
    review: "Se dine adgangsnøgler",
  },
  account_connected: {
    subject: (appName, providerName) => `${providerName} er blevet forbundet med din konto hos ${appName}`,
    preview: (appName, providerName) => `Din ${providerName}-konto kan nu logge ind på din konto hos ${appName}.`,
    heading: (providerName) => `${providerName} er blevet forbundet`,
    intro: (appName, providerName, when) =>
      `En ${providerName}-konto blev forbundet med din konto hos ${appName} ${when}. Den kan nu logge ind på din konto uden din adgangskode.`,
    ifYou: "Hvis det var dig, der forbandt den, behøver du ikke gøre mere.",
    notYou:
      "Hvis det ikke var dig, kan en anden være logget ind på din konto: fjern forbindelsen med det samme, skift din adgangskode, og log ud af de sessioner, du ikke genkender:",
    review: "Se dine forbundne konti",
  },
  account_disconnected: {
    subject: (appName, providerName) => `${providerName} er ikke længere forbundet med din konto hos ${appName}`,
    preview: (appName, providerName) => `Din ${providerName}-konto kan ikke længere logge ind på din konto hos ${appName}.`,
    heading: (providerName) => `${providerName} er ikke længere forbundet`,
    intro: (appName, providerName, when) =>
      `Forbindelsen til en ${providerName}-konto blev fjernet fra din konto hos ${appName} ${when}. Den kan ikke længere bruges til at logge ind.`,
    ifYou: "Hvis det var dig, der fjernede den, behøver du ikke gøre mere.",
    notYou:
      "Hvis det ikke var dig, kan en anden være logget ind på din konto: skift din adgangskode, og log ud af de sessioner, du ikke genkender:",
    review: "Se din konto",
  },
  email_verification_link: {
    subject: (appName) => `Bekræft din e-mailadresse hos ${appName}`,
    preview: (appName) => `Bekræft, at denne e-mailadresse hører til din konto hos ${appName}.`,
    heading: "Bekræft din e-mailadresse",
    intro: (appName) => `Bekræft, at du vil tilføje denne e-mailadresse til din konto hos ${appName}.`,
    button: "Bekræft e-mailadresse",
    expiry: (duration) => `Linket udløber om ${duration}.`,
    notYou: "Hvis du ikke har tilføjet denne adresse, kan du se bort fra denne e-mail.",
  },
  account_deletion_link: {
    subject: (appName) => `Bekræft sletningen af din konto hos ${appName}`,
    preview: (appName) => `Bekræft, at du vil slette din konto hos ${appName}.`,
    heading: "Bekræft sletning af konto",
    intro: (appName) =>
      `Du har bedt om at få slettet din konto hos ${appName}. Din konto og dens data slettes, når du bekræfter med knappen nedenfor. Det kan ikke fortrydes.`,
    button: "Slet min konto",
    expiry: (duration) => `Linket udløber om ${duration}.`,
    notYou: "Hvis du ikke har bedt om dette, kan du se bort fra denne e-mail, så forbliver din konto uændret. Overvej at skifte din adgangskode.",
  },
  data_export_ready: {
    subject: (appName) => `Dine data fra ${appName} er klar til download`,
    preview: (appName) => `Kopien af dine data fra ${appName}, som du bad om, er klar.`,
    heading: "Dine data er klar",
    intro: (appName) =>
      `Kopien af alt, hvad ${appName} gemmer om dig, er klar. Linket virker én gang: filen slettes fra vores servere, når du har hentet den.`,
    button: "Hent mine data",
    expiry: (duration) => `Linket udløber om ${duration}.`,
    notYou: "Hvis du ikke har bedt om en kopi af dine data, så skift din adgangskode: en anden kan være logget ind på din konto.",
  },
  organization_invitation: {
    subject: (invite) => invitedBy(invite),
    preview: (invite) => `${invitedBy(invite)}.`,
    heading: (organizationName) => `Bliv medlem af ${organizationName}`,
    intro: (invite) => `${invitedBy(invite)}.`,
    role: (roleName) => `Du bliver medlem som ${roleName}.`,
    button: "Accepter invitationen",
    expiry: (duration) => `Invitationen udløber om ${duration}.`,
    notYou: "Hvis du ikke ønsker at blive medlem, kan du se bort fra denne e-mail.",
  },
};
