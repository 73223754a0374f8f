# Varnish 7.1 with varnish-modules (xkey) in front of Plaudit's API: caches the public answers,
# files them under the keys they carry (Surrogate-Key: org-<id>, product-<id>, sitemap), and
# empties an organization's answers when the worker sends `PURGE` with `Surrogate-Key: org-<id>`
# (CDN_PURGE_URL). docs/scaling.md tells how to run it.
#
#   varnishd -a :80 -f /etc/varnish/plaudit.vcl -s malloc,256m
#
# Set the backend to where the API listens, and `purgers` to the worker's addresses.
vcl 4.1;

import std;
import xkey;

backend plaudit {
  .host = "127.0.0.1";
  .port = "54321";
  .connect_timeout = 2s;
  .first_byte_timeout = 30s;
}

# Who may purge: the worker. Add its address if it runs on another machine; nobody else may.
acl purgers {
  "localhost";
  "127.0.0.1";
  "::1";
}

sub vcl_recv {
  set req.backend_hint = plaudit;
  unset req.http.X-Cache;

  if (req.method == "PURGE") {
    if (client.ip !~ purgers) {
      return (synth(403, "Forbidden"));
    }
    if (!req.http.Surrogate-Key) {
      return (synth(400, "A purge names its keys in Surrogate-Key"));
    }
    # A hard purge: a hidden review must be gone at once, not served stale while refreshing.
    # xkey.softpurge() would keep the objects for grace instead.
    set req.http.X-Purged = xkey.purge(req.http.Surrogate-Key);
    return (synth(200, "Purged " + req.http.X-Purged));
  }

  # Only reads are cached; credentials and sessions never are.
  if (req.method != "GET" && req.method != "HEAD") {
    return (pass);
  }
  if (req.http.Authorization) {
    return (pass);
  }

  # Only the public answers: everything else (the rest of /api/v1, the dashboard at /app, hosted
  # forms, e-mailed /r/ and /t/ links, verification and invitation pages) goes to the API as is.
  if (req.url ~ "^/api/v1/public/(embed|reviews|profiles)/"
      || req.url ~ "^/p/"
      || req.url ~ "^/sitemap(-[0-9]+)?\.xml$"
      || req.url ~ "^/robots\.txt$"
      || req.url ~ "^/embed/v1/") {
    # Public answers do not depend on cookies a browser sends along.
    unset req.http.Cookie;
    # The pages vary by the reader's language (Vary: Accept-Language), which the API reads as one
    # primary language: keyed by the whole header, each browser's own list would be a cache entry
    # of its own. Browsers list their languages most preferred first.
    if (req.http.Accept-Language ~ "^\s*[A-Za-z]{2}(\b|[-_])") {
      set req.http.Accept-Language = std.tolower(regsub(req.http.Accept-Language, "^\s*([A-Za-z]{2}).*$", "\1"));
    } else {
      unset req.http.Accept-Language;
    }
    return (hash);
  }
  return (pass);
}

sub vcl_backend_response {
  # xkey indexes an object by its `xkey` header: the keys the API wrote in Surrogate-Key.
  if (beresp.http.Surrogate-Key) {
    set beresp.http.xkey = beresp.http.Surrogate-Key;
  }
  # Keep serving a stale answer for a while after its TTL while one fetch refreshes it, and when
  # the API is down (the answer's own stale-while-revalidate when longer).
  if (beresp.grace < 5m) {
    set beresp.grace = 5m;
  }
  # An answer without caching headers (an unknown slug's 404, an error) is not kept: it names no
  # key, so no purge could remove it.
  if (beresp.status >= 500 || !beresp.http.Cache-Control || beresp.http.Set-Cookie
      || beresp.http.Cache-Control ~ "(private|no-store|no-cache)") {
    set beresp.uncacheable = true;
    set beresp.ttl = 30s;
    return (deliver);
  }
  return (deliver);
}

sub vcl_deliver {
  if (obj.uncacheable) {
    set resp.http.X-Cache = "PASS";
  } elsif (obj.hits > 0) {
    set resp.http.X-Cache = "HIT";
  } else {
    set resp.http.X-Cache = "MISS";
  }
  # The keys are for this cache only (Cache-Tag stays for a Cloudflare in front, which strips it).
  unset resp.http.Surrogate-Key;
  unset resp.http.xkey;
  unset resp.http.X-Purged;
  unset resp.http.Via;
  unset resp.http.X-Varnish;
}

sub vcl_synth {
  unset resp.http.Retry-After;
  set resp.http.Content-Type = "text/plain; charset=utf-8";
  set resp.body = resp.reason;
  return (deliver);
}
