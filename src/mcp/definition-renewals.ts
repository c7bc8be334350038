/**
 * The version of the MCP server definition an editor gets for the in-host endpoint, and when to tell the
 * editor the definition changed (src/extension/mcp-definitions.ts). The endpoint's URL and token are new at
 * every renewal (a restart of the endpoint, a reloaded runtime); an editor that kept the old definition (same
 * version, no change event) went on calling the closed endpoint, and the call failed ("Canceled"). So the
 * version moves with the endpoint, and every renewal fires the change event so the editor asks again.
 *
 * The first endpoint handed out in a window keeps the plain base version, so an editor keeps its cached tool
 * list across a window reload (tools themselves change over tools/list_changed, never through the version).
 */

/** Where an endpoint listens, as far as the definition is concerned (EndpointInfo of src/mcp/http-endpoint.ts). */
export interface EndpointAddress {
  url: string;
  token: string;
}

/** Counts endpoint renewals seen by one definition provider and fires its change event on each. */
export class DefinitionRenewals {
  private last?: EndpointAddress;
  private renewals = 0;

  /** `fire`: the provider's "definitions changed" event (VS Code's onDidChangeMcpServerDefinitions). */
  constructor(private readonly fire: () => void) {}

  /** Endpoints renewed since the first one handed out. */
  get count(): number {
    return this.renewals;
  }

  /**
   * The version to hand out with the definition of endpoint `address`: `base` for the first endpoint,
   * `<base>+endpoint.<n>` once n renewals were seen (an address other than the last one handed out is one).
   */
  provided(base: string, address: EndpointAddress): string {
    this.see(address);
    return this.renewals === 0 ? base : `${base}+endpoint.${this.renewals}`;
  }

  /**
   * The editor resolves the definition (about to connect) and the endpoint is at `address` now: when that is
   * not the endpoint it was last given, the renewal is counted and the change event fires, so the editor
   * provides again and gets the new version.
   */
  resolved(address: EndpointAddress): void {
    if (this.see(address)) this.fire();
  }

  /** The endpoint was renewed (restarted, or a new runtime with a new endpoint): the change event fires. */
  renewed(): void {
    this.fire();
  }

  /** Records `address`; true when it renews the one last seen. */
  private see(address: EndpointAddress): boolean {
    const before = this.last;
    this.last = { url: address.url, token: address.token };
    if (!before || (before.url === address.url && before.token === address.token)) return false;
    this.renewals++;
    return true;
  }
}
