/**
 * GoTrue's redirect check (utilities.IsRedirectURLValid): a `redirect_to` is followed only when
 * it is the site URL's scheme and host (any port on localhost/loopback), a loopback IP address,
 * or matches an allow-list pattern; anything else falls back to the site URL.
 */
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
const DECIMAL_IP = /^\d+$/;
// The host as written: WHATWG URL turns 2130706433 or 0x7f.1 into 127.0.0.1, Go's parser (and
// so GoTrue) does not.
const AUTHORITY_HOST = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^/:?#]*)/i;

/** An allow-list entry as GoTrue's globs read it: `*` within a segment, `**` across segments. */
function globToRegExp(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i += 1) {
    const ch = pattern[i]!;
    if (ch === '*' && pattern[i + 1] === '*') {
      source += '.*';
      i += 1;
    } else if (ch === '*') source += '[^./]*';
    else if (ch === '?') source += '[^./]';
    else source += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

function isLoopbackIp(host: string): boolean {
  return host === '[::1]' || host === '::1' || (IPV4.test(host) && host.startsWith('127.'));
}

export class RedirectPolicy {
  private readonly allowList: RegExp[];

  constructor(
    readonly siteUrl: string,
    additionalRedirectUrls: string[],
  ) {
    this.allowList = additionalRedirectUrls.map(globToRegExp);
  }

  isAllowed(candidate: string): boolean {
    let target: URL;
    let site: URL;
    try {
      target = new URL(candidate);
      site = new URL(this.siteUrl);
    } catch {
      return false;
    }
    const host = (AUTHORITY_HOST.exec(candidate)?.[1] ?? '').toLowerCase();
    if (host !== target.hostname) return false;
    if (host === site.hostname && target.protocol === site.protocol && (target.port === site.port || LOOPBACK_NAMES.has(host))) {
      return true;
    }
    if (DECIMAL_IP.test(host)) return false;
    if (IPV4.test(host) || host.startsWith('[')) return isLoopbackIp(host);
    const withoutFragment = candidate.split('#')[0]!;
    return this.allowList.some((re) => re.test(withoutFragment));
  }

  /** `candidate` when allowed, else `fallback` (GoTrue falls back to the site URL). */
  resolve(candidate: string | null | undefined, fallback: string = this.siteUrl): string {
    return candidate && this.isAllowed(candidate) ? candidate : fallback;
  }
}
