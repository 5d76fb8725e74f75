/** Runs once when the Next.js server boots; the work lives in the Node-only module. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { bootServer } = await import("./lib/config/boot-server");
    await bootServer();
  }
}
