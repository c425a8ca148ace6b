// Minimal typings for the parts of oidc-provider v9 the local stack uses (the package ships none and
// @types/oidc-provider is not installed). Loose on purpose: the configuration object is validated by the library.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface InteractionDetails {
    uid: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, unknown> & { client_id?: string; scope?: string };
    session?: { accountId?: string };
    grantId?: string;
  }

  export interface GrantInstance {
    accountId?: string;
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    save(): Promise<string>;
  }

  export class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    readonly issuer: string;
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    on(event: string, listener: (...args: unknown[]) => void): this;
    Grant: {
      new (properties: { clientId: string; accountId: string }): GrantInstance;
      find(id: string): Promise<GrantInstance | undefined>;
    };
  }
  export default Provider;

  /** The part of oidc-provider's request context the local stack reads. */
  export interface ProviderContext {
    oidc: {
      session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
      client?: { clientId: string };
      params?: Record<string, unknown>;
      result?: { consent?: { grantId?: string } };
      provider: Provider;
    };
    type: string;
    body: unknown;
  }

  export namespace interactionPolicy {
    class Check {
      constructor(reason: string, description: string, check: (ctx: ProviderContext) => boolean | Promise<boolean>);
      static REQUEST_PROMPT: true;
      static NO_NEED_TO_PROMPT: false;
    }
    interface Prompt {
      name: string;
      checks: { add(check: Check, index?: number): void };
    }
    interface Policy extends Array<Prompt> {
      get(name: string): Prompt | undefined;
    }
    function base(): Policy;
  }
}
