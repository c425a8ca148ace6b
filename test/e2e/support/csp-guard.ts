import type { Browser, BrowserContext } from '@playwright/test';

/**
 * Fails a browser test on any Content Security Policy violation. The local stack serves the portal with production's
 * security headers (lib/config/security-headers.ts), so a script, style, image, media or connection the CSP refuses
 * here is one production refuses too, and the page would quietly lose it. Two ears: the document's
 * `securitypolicyviolation` events (with the directive and the blocked URL) and the console's CSP errors (which also
 * catch violations before the page's own scripts run).
 */
export class CspGuard {
  readonly violations: string[] = [];
  private readonly guarded = new WeakSet<BrowserContext>();

  /** Listens on every page of `context`, present and future. */
  async watch(context: BrowserContext): Promise<void> {
    if (this.guarded.has(context)) return;
    this.guarded.add(context);
    await context.exposeBinding('__verityCspViolation', ({ page }, text: string) => {
      this.violations.push(`${page.url()}: ${text}`);
    });
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        const report = (window as unknown as { __verityCspViolation?: (text: string) => void }).__verityCspViolation;
        report?.(`${event.effectiveDirective} refused ${event.blockedURI || '(inline)'} at ${event.sourceFile || 'the document'}:${event.lineNumber}`);
      });
    });
    context.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) {
        this.violations.push(`${message.page()?.url() ?? '(no page)'}: console: ${message.text()}`);
      }
    });
  }

  /**
   * Guards the contexts a test makes itself (`browser.newContext()`, for a second account) as well, until `restore`.
   */
  watchNewContexts(browser: Browser): () => void {
    const original = browser.newContext.bind(browser);
    browser.newContext = async (...args: Parameters<Browser['newContext']>) => {
      const context = await original(...args);
      await this.watch(context);
      return context;
    };
    return () => {
      browser.newContext = original;
    };
  }
}
