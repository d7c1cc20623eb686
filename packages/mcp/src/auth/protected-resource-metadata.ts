import {
  getOAuthProtectedResourceMetadataUrl,
  type OAuthProtectedResourceMetadata,
} from "@modelcontextprotocol/server";

/** The well-known prefix of RFC 9728 Protected Resource Metadata. */
export const RESOURCE_METADATA_PATH = "/.well-known/oauth-protected-resource";

/**
 * Where a resource's metadata is published (RFC 9728 §3.1, the SDK's reading of it): the well-known
 * prefix goes between the resource's host and its path, so `https://example.org/quiver/mcp` has its
 * document at `https://example.org/.well-known/oauth-protected-resource/quiver/mcp`.
 */
export const resourceMetadataUrl = (resource: string): string =>
  getOAuthProtectedResourceMetadataUrl(new URL(resource));

/**
 * The RFC 9728 document of one resource: the resource's URL, the one authorization server that
 * issues its tokens and the scopes its tools require. Built here rather than with the SDK's
 * `buildOAuthProtectedResourceMetadata`, which needs the authorization server's full metadata up
 * front (this server reads it lazily, on the first token).
 */
export const protectedResourceMetadata = (options: {
  readonly resource: string;
  readonly issuer: string;
  readonly scopesSupported: ReadonlyArray<string>;
  readonly resourceName?: string;
}): OAuthProtectedResourceMetadata => ({
  resource: options.resource,
  authorization_servers: [options.issuer],
  bearer_methods_supported: ["header"],
  ...(options.scopesSupported.length > 0 ? { scopes_supported: [...options.scopesSupported] } : {}),
  ...(options.resourceName ? { resource_name: options.resourceName } : {}),
});
