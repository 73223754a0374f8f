// The few things that differ between Deno (where the functions run) and Node (where vitest runs
// the same code): reading the environment and reading a file shipped with the function.
type DenoLike = {
  env: { get(name: string): string | undefined };
  readFile(path: string | URL): Promise<Uint8Array>;
};
const deno = (globalThis as unknown as { Deno?: DenoLike }).Deno;

export function env(name: string): string | undefined {
  if (deno) return deno.env.get(name);
  return (globalThis as unknown as { process?: { env: Record<string, string | undefined> } })
    .process?.env[name];
}

export async function readFileBytes(url: URL): Promise<Uint8Array> {
  if (deno) return await deno.readFile(url);
  const fs = await import('node:fs/promises');
  return new Uint8Array(await fs.readFile(url));
}

/**
 * Where a file of an installed npm package lies, for Node (vitest), which cannot fetch the file
 * URLs WebAssembly packages load their modules from; Deno loads them itself.
 */
export async function nodePackageFile(specifier: string): Promise<URL> {
  const { createRequire } = await import('node:module');
  const { pathToFileURL } = await import('node:url');
  return pathToFileURL(createRequire(import.meta.url).resolve(specifier));
}

/** Whether this is Deno (the API and the worker), not Node (the unit tests). */
export const isDeno = deno !== undefined;
