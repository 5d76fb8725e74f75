import { Body, Container, Head, Heading, Hr, Html, Img, Preview, Section, Text } from "@react-email/components";
import type { ReactNode } from "react";
import type { EmailCopy } from "../copy";
import type { EmailBrand } from "../types";
import { accentColor, fontFamily } from "./styles";

export interface EmailLayoutProps {
  brand: EmailBrand;
  copy: EmailCopy;
  /** Inbox preview line; hidden in the body and left out of the text part. */
  preview: string;
  heading: string;
  children: ReactNode;
}

/** The frame every email shares: the environment's logo or name, a heading, the body, and who sent it. */
export function EmailLayout({ brand, copy, preview, heading, children }: EmailLayoutProps) {
  const accent = accentColor(brand.accentColor);
  // Only absolute http(s) logos: anything else would not load in a mail client anyway.
  const logoUrl = brand.logoUrl && /^https?:\/\//i.test(brand.logoUrl) ? brand.logoUrl : null;
  return (
    <Html lang={copy.languageTag}>
      <Head />
      <Preview>{preview}</Preview>
      <Body style={{ backgroundColor: "#f3f4f6", fontFamily, margin: 0, padding: "24px 0" }}>
        <Container
          style={{ backgroundColor: "#ffffff", borderTop: `4px solid ${accent}`, borderRadius: "8px", maxWidth: "520px", padding: "32px" }}
        >
          <Section style={{ marginBottom: "24px" }}>
            {logoUrl ? (
              <Img src={logoUrl} alt={brand.applicationName} height="40" style={{ height: "40px", width: "auto" }} />
            ) : (
              <Text style={{ color: accent, fontSize: "18px", fontWeight: 700, margin: 0 }}>{brand.applicationName}</Text>
            )}
          </Section>
          <Heading as="h1" style={{ color: "#111827", fontSize: "22px", lineHeight: "30px", margin: "0 0 16px" }}>
            {heading}
          </Heading>
          {children}
          <Hr style={{ borderColor: "#e5e7eb", margin: "24px 0 16px" }} />
          <Text style={{ color: "#9ca3af", fontSize: "12px", lineHeight: "18px", margin: 0 }}>
            {copy.layout.sentBy(brand.applicationName)}
          </Text>
        </Container>
      </Body>
    </Html>
  );
}
