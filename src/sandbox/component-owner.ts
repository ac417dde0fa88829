/**
 * One tenant's versions of a component. A name the administrator moved to another tenant keeps its
 * former owner's versions live beside the new owner's (decisions §15): what the pool keeps per
 * component (its admission gate, its losses and quarantine) is kept per owner, so that neither
 * owner's versions ever hold, spend or lose what the other's need.
 */
export interface ComponentOwner {
  component: string;
  tenant: string;
}

/** A map key for it: a component name holds no newline, so no two owners share one. */
export const ownerKey = ({ component, tenant }: ComponentOwner): string => `${tenant}\n${component}`;
