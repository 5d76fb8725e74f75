import { Text } from "@react-email/components";

/**
 * A one-time code in its own block, so the text part has it on a line of its own
 * (tests and mail clients' "copy code" detection both rely on that). The spacing is
 * CSS only: the characters stay six contiguous digits.
 */
export function CodeBox({ code }: { code: string }) {
  return (
    <Text
      style={{
        backgroundColor: "#f3f4f6",
        borderRadius: "6px",
        color: "#111827",
        fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace",
        fontSize: "30px",
        fontWeight: 700,
        lineHeight: "36px",
        letterSpacing: "8px",
        margin: "0 0 16px",
        padding: "14px 0",
        textAlign: "center",
      }}
    >
      {code}
    </Text>
  );
}
