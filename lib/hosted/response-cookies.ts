import { parseSetCookie } from "cookie";
import { cookies } from "next/headers";

function sameSiteOf(value: boolean | string | undefined): "lax" | "strict" | "none" {
  const normalized = value === true ? "strict" : String(value ?? "lax").toLowerCase();
  return normalized === "strict" || normalized === "none" ? normalized : "lax";
}

/**
 * Applies the Set-Cookie values a lib function returned (session cookie and its
 * hint, or their removal) to the server action's response, attribute for
 * attribute: the lib decides HttpOnly, SameSite=Lax, Secure and Path.
 */
export async function applySetCookies(setCookies: string[]): Promise<void> {
  const jar = await cookies();
  for (const header of setCookies) {
    const parsed = parseSetCookie(header);
    jar.set({
      name: parsed.name,
      value: parsed.value ?? "",
      path: parsed.path ?? "/",
      httpOnly: parsed.httpOnly ?? false,
      secure: parsed.secure ?? false,
      sameSite: sameSiteOf(parsed.sameSite),
      ...(parsed.expires ? { expires: parsed.expires } : {}),
      ...(parsed.maxAge !== undefined ? { maxAge: parsed.maxAge } : {}),
    });
  }
}
