/**
 * Every bound and share one tenant is held to beside the others (decisions §11, §13), in one place:
 * its value, what it bounds, why, and the attack it answers. The mechanisms read their numbers here
 * (the sandbox pool, the component gates, the quarantine, the memory watchdog, and the prelude inside
 * each isolate, which gets the cookie bounds as limits); README.md's table under "Tenants" shows
 * each rule, and test/sandbox/tenancy-policy-is-documented.test.ts holds the two together.
 */
export interface TenancyRule {
  readonly value: number;
  /** The value as a reader wants it: with its unit, or as the fraction it is. */
  readonly shown: string;
  /** What the value bounds. */
  readonly bounds: string;
  /** Why that value, and the attack it answers. */
  readonly reason: string;
}

export const TENANCY_POLICY = {
  componentCookieNames: {
    value: 8,
    shown: '8',
    bounds: "cookie names one component keeps in a visitor's browser; also the cookies one answer may set",
    reason: "the origin's one jar is every tenant's, and the registry reads at most 16 KB of request headers: a component filling the jar would lock the visitor out of every tenant",
  },
  cookieBytes: {
    value: 4096,
    shown: '4096 bytes',
    bounds: 'one cookie, as the browser keeps it (`oc.<component>.<name>=<URI-encoded value>`)',
    reason: 'one cookie alone must not take a quarter of the headers every tenant shares',
  },
  componentCookieBytes: {
    value: 4096,
    shown: '4096 bytes',
    bounds: "one component's cookies together in a visitor's browser; also what one answer may set",
    reason: 'the same jar: many small cookies fill it as well as one large one',
  },
  tenantCookieNames: {
    value: 16,
    shown: '16',
    bounds: "cookie names one tenant's components together keep in a visitor's browser",
    reason: "a browser keeps a bounded number of cookies per host (Chromium 180) and evicts the least recently used past it, whoever set them: one tenant's many components would push another tenant's session out",
  },
  tenantCookieBytes: {
    value: 8192,
    shown: '8192 bytes',
    bounds: "one tenant's components' cookies together in a visitor's browser",
    reason: 'a tenant may publish many components, each within its own bound: together they would still fill the jar',
  },
  foreignShareOfComponent: {
    value: 1 / 2,
    shown: '½ of its slots',
    bounds: "slots of one component (`maxConcurrentPerComponent`) the requests of tenants other than the component's hold together",
    reason: "other tenants' pages fanning out to a component never take every slot its own visitors need",
  },
  foreignShareOfComponentPerTenant: {
    value: 1 / 4,
    shown: '¼ of its slots',
    bounds: "slots of one component the requests of one other tenant hold",
    reason: "one other tenant's fan-out never takes all the slots the other tenants may use",
  },
  nestedHeadroom: {
    value: 1 / 2,
    shown: '½ of the slots',
    bounds: 'slots nested renders may borrow beyond the pool\'s (`sandboxHosts` × `concurrentPerHost`), taken at once or refused',
    reason: 'a nested render never waits behind its parent, which holds a slot meanwhile: nesting keeps working under load, and a tenant\'s fan-out is still bounded',
  },
  quarantineComponentLosses: {
    value: 3,
    shown: '3',
    bounds: 'losses (a lost isolate, an execution its host never answered, a host recycled past its memory) of one component, all its versions, within the window that refuse it',
    reason: 'a component that keeps losing its sandbox takes every host it lands on down with it, and its neighbours\' executions; a new version is no way out',
  },
  quarantineTenantLosses: {
    value: 10,
    shown: '10',
    bounds: "losses of one tenant's components together within the window that refuse all of them",
    reason: 'a tenant publishing one hostile component after another under new names',
  },
  quarantineWindowMs: {
    value: 60_000,
    shown: '60 s',
    bounds: 'the window losses are counted in',
    reason: 'losses far apart are accidents; close together, an attack',
  },
  quarantineForMs: {
    value: 60_000,
    shown: '60 s',
    bounds: 'how long a quarantine refuses (`503 SANDBOX_QUARANTINED`)',
    reason: 'long enough for the hosts it took down to come back, short enough that a fixed component comes back on its own',
  },
  memoryWatchdogFactor: {
    value: 2,
    shown: '2 × `memoryMb`',
    bounds: "growth of a host, while one isolate is at work, past which that isolate is stopped wherever its code is (built-ins included)",
    reason: "memory taken inside one built-in call escapes the isolate's heap limit: it would grow the host, and every tenant's isolates in it, past the host's limit",
  },
} as const satisfies Record<string, TenancyRule>;

/** The cookie bounds the prelude enforces inside each isolate (it cannot import: they go in as limits). */
export interface CookieBounds {
  componentNames: number;
  cookieBytes: number;
  componentBytes: number;
  tenantNames: number;
  tenantBytes: number;
}

export const COOKIE_BOUNDS: CookieBounds = {
  componentNames: TENANCY_POLICY.componentCookieNames.value,
  cookieBytes: TENANCY_POLICY.cookieBytes.value,
  componentBytes: TENANCY_POLICY.componentCookieBytes.value,
  tenantNames: TENANCY_POLICY.tenantCookieNames.value,
  tenantBytes: TENANCY_POLICY.tenantCookieBytes.value,
};
