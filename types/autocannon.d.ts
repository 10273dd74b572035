/** The slice of autocannon 8/9 the dealer bench uses (the package ships no types). */
declare module 'autocannon' {
  interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    [k: string]: unknown;
  }
  interface AutocannonOptions {
    url: string;
    method?: string;
    connections?: number;
    pipelining?: number;
    duration?: number;
    amount?: number;
    headers?: Record<string, string>;
    body?: string | Buffer;
    requests?: {
      method?: string;
      path?: string;
      body?: string | Buffer;
      setupRequest?: (req: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest;
    }[];
  }
  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p99: number;
  }
  interface AutocannonResult {
    '1xx': number;
    '2xx': number;
    '3xx': number;
    '4xx': number;
    '5xx': number;
    non2xx: number;
    errors: number;
    timeouts: number;
    /** Seconds. */
    duration: number;
    latency: Histogram;
    requests: Histogram;
    throughput: Histogram;
  }
  function autocannon(opts: AutocannonOptions): Promise<AutocannonResult>;
  export default autocannon;
  export type { AutocannonOptions, AutocannonRequest, AutocannonResult };
}
