// The Debian packages the test suite needs. As root, missing ones are installed; otherwise the
// run stops with one line saying what to install.
import { spawnSync } from 'node:child_process';

// plpgsql-check: the database linter (08-database-lint.test.sql); chromium: the hosted pages are
// tested in a real browser (driven by playwright-core); varnish and varnish-modules (xkey): the
// shipped VCL is tested in front of the API (deploy/varnish/plaudit.vcl); libxml2-utils: xmllint
// validates the Google product feed against Google's schema; pgbouncer: in transaction mode it
// stands in for Supabase's pooler in the hosted-conditions rig (tests/hosted/).
export const TEST_PACKAGES = [
  'postgresql-15',
  'postgresql-15-pgtap',
  'postgresql-15-cron',
  'postgresql-15-plpgsql-check',
  'chromium',
  'varnish',
  'varnish-modules',
  'libxml2-utils',
  'pgbouncer',
];

function installed(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('install ok installed');
}

export function ensureDebianPackages(packages) {
  const missing = packages.filter((p) => !installed(p));
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    console.error(`Missing Debian packages; install them with: sudo apt-get install -y ${missing.join(' ')}`);
    process.exit(1);
  }
  console.log(`Installing ${missing.join(', ')} …`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', ...missing]]) {
    const r = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
    if (r.status !== 0) {
      console.error(`apt-get ${args[0]} failed; install by hand: apt-get install -y ${missing.join(' ')}`);
      process.exit(1);
    }
  }
}
