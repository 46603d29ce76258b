// The part of swagger-client (which ships no types) the compatibility tests use.
declare module 'swagger-client' {
  interface BuiltRequest {
    url: string;
    method: string;
    headers: Record<string, string>;
    body?: unknown;
  }
  const SwaggerClient: {
    buildRequest(options: {
      spec: object;
      operationId: string;
      parameters?: Record<string, unknown>;
      requestBody?: unknown;
    }): BuiltRequest;
  };
  export default SwaggerClient;
}
