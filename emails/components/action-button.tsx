import { Button, Link, Section, Text } from "@react-email/components";
import type { EmailCopy } from "../copy";
import { accentColor } from "./styles";

export interface ActionButtonProps {
  href: string;
  label: string;
  accent: string | null;
  copy: EmailCopy;
}

/**
 * A button plus the bare URL beneath it, for clients that drop button styling. In
 * the text part the absolute URL follows the label, separated by a space.
 */
export function ActionButton({ href, label, accent, copy }: ActionButtonProps) {
  const color = accentColor(accent);
  return (
    <Section style={{ margin: "8px 0 20px" }}>
      <Button
        href={href}
        style={{
          backgroundColor: color,
          borderRadius: "6px",
          color: "#ffffff",
          fontSize: "15px",
          fontWeight: 600,
          padding: "12px 20px",
          textDecoration: "none",
        }}
      >
        {label}
      </Button>
      {/* The text part already has the URL right after the label; the fallback is for HTML clients only. */}
      <Text data-skip-in-text="true" style={{ color: "#6b7280", fontSize: "12px", lineHeight: "18px", margin: "16px 0 0", wordBreak: "break-all" }}>
        {copy.layout.linkFallback} <Link href={href} style={{ color }}>{href}</Link>
      </Text>
    </Section>
  );
}
