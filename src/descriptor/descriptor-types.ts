/** The component package descriptor (`package.json`) as the contract defines it. */

export type ParameterType = 'string' | 'boolean' | 'number';
export type ParameterValue = string | boolean | number;

export interface ParameterDefinition {
  type: ParameterType;
  mandatory?: boolean;
  description?: string;
  /** Documentation only; any JSON value. */
  example?: unknown;
  default?: ParameterValue;
  enum?: ParameterValue[];
}

export type ComponentState = 'active' | 'experimental' | 'deprecated';

export interface SourceDescriptor {
  name: string;
  version: string;
  description?: string;
  author?: string;
  repository?: string;
  dependencies?: Record<string, string>;
  devDependencies: Record<string, string>;
  oc: {
    files: {
      template: { src: string; type: string };
      data?: string;
      static?: string[];
      env?: string;
    };
    container?: boolean;
    minify?: boolean;
    renderInfo?: boolean;
    state?: ComponentState;
    plugins?: string[];
    parameters?: Record<string, ParameterDefinition>;
  };
}

/** Fields the packager computes; present only in a packaged descriptor. */
export interface PackagedFiles {
  template: { src: 'template.js'; type: string; hashKey: string };
  dataProvider?: { src: 'server.js'; type: 'node.js'; hashKey: string; size: number };
  static: string[];
  env?: string;
}

export interface PackagedDescriptor extends Omit<SourceDescriptor, 'oc'> {
  oc: Omit<SourceDescriptor['oc'], 'files'> & {
    files: PackagedFiles;
    packaged: true;
    /** Packaging date, milliseconds since the epoch. */
    date: number;
    /** Names of the actions the modern entry registers. */
    actions?: string[];
    /** Who published this version, when, and under which generation of the name's claim (1 when absent); written at publish. */
    publisher?: { tenant: string; date: number; generation?: number };
  };
}
