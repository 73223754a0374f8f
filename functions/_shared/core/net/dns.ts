// Name resolution for the SSRF guard: Deno.resolveDns where the functions run, node:dns under
// vitest. Answers every A and AAAA address of a name.
import type { Resolver } from './ssrf.ts';

type DenoDns = {
  resolveDns(name: string, type: 'A' | 'AAAA', options?: { signal?: AbortSignal }): Promise<string[]>;
};

export const resolveHost: Resolver = async (hostname) => {
  const deno = (globalThis as unknown as { Deno?: DenoDns }).Deno;
  if (deno?.resolveDns) {
    const answers = await Promise.all(
      (['A', 'AAAA'] as const).map((type) =>
        deno.resolveDns(hostname, type, { signal: AbortSignal.timeout(5000) }).catch(() => [] as string[])
      ),
    );
    return answers.flat();
  }
  const dns = await import('node:dns');
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => a.address);
};
