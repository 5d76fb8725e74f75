/** Runs `run` with GATEHOUSE_MODE set to `mode` (read on every call: lib/config/runtime.ts), then puts the previous value back. */
export async function withMode<T>(mode: "production" | "development", run: () => Promise<T>): Promise<T> {
  const previous = process.env.GATEHOUSE_MODE;
  process.env.GATEHOUSE_MODE = mode;
  try {
    return await run();
  } finally {
    if (previous === undefined) delete process.env.GATEHOUSE_MODE;
    else process.env.GATEHOUSE_MODE = previous;
  }
}
