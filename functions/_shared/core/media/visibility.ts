// Which media files the public may read, as the API last heard from the database, kept a few
// seconds (docs/media.md, "Storage and serving"). A stored photo is fetched far more often than
// it is hidden, and each answer from the database cost more than reading the file; kept here, a
// hidden item's file is served at most `ttlMs` longer by an API instance that has just served it
// (a CDN in front already serves it until its purge lands). A write by an organization through
// this instance forgets that organization's files at once (forgetOrganization), so that its own
// hide, erasure or profile change is seen by the next request here. Only visible files are kept:
// a file not known visible is always asked of the database.

interface Entry {
  contentType: string;
  /** The clock's time past which the database is asked again. */
  until: number;
}

export interface MediaVisibilityOptions {
  /** How long a visible file is served without asking the database again; 0 keeps nothing. */
  ttlMs: number;
  /** The most files kept; past it, the organization kept longest loses its oldest file. */
  maxEntries?: number;
  /** The clock, in milliseconds (tests move it by hand). */
  now?: () => number;
}

/** A key's organization: keys are `<organization>/<review>/<file>` (storage.ts MEDIA_KEY). */
const organizationOf = (key: string) => key.slice(0, key.indexOf('/'));

export class MediaVisibility {
  readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  /** Each organization's kept files, in the order they were kept. */
  private readonly byOrganization = new Map<string, Map<string, Entry>>();
  private size = 0;

  constructor({ ttlMs, maxEntries = 10_000, now = () => performance.now() }: MediaVisibilityOptions) {
    this.ttlMs = ttlMs;
    this.maxEntries = maxEntries;
    this.now = now;
  }

  /** The content type of a file known visible within the last `ttlMs`, else undefined. */
  visible(key: string): string | undefined {
    const files = this.byOrganization.get(organizationOf(key));
    const entry = files?.get(key);
    if (!entry) return undefined;
    if (this.now() < entry.until) return entry.contentType;
    this.drop(files!, key, organizationOf(key));
    return undefined;
  }

  /** Keeps what the database just answered: a visible file's content type. */
  remember(key: string, contentType: string): void {
    if (this.ttlMs <= 0) return;
    const org = organizationOf(key);
    let files = this.byOrganization.get(org);
    if (!files) this.byOrganization.set(org, files = new Map());
    if (!files.has(key)) {
      if (this.size >= this.maxEntries) this.dropOldest();
      this.size += 1;
    }
    files.set(key, { contentType, until: this.now() + this.ttlMs });
  }

  /** Forgets every file of an organization: it has just written something that may hide one. */
  forgetOrganization(orgId: string): void {
    const files = this.byOrganization.get(orgId);
    if (!files) return;
    this.size -= files.size;
    this.byOrganization.delete(orgId);
  }

  /** How many files are kept. */
  get count(): number {
    return this.size;
  }

  private drop(files: Map<string, Entry>, key: string, org: string) {
    files.delete(key);
    this.size -= 1;
    if (files.size === 0) this.byOrganization.delete(org);
  }

  private dropOldest() {
    const [org, files] = this.byOrganization.entries().next().value!;
    this.drop(files, files.keys().next().value!, org);
  }
}
