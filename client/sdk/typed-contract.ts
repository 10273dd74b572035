/**
 * ethers v6 contracts typed by their `as const` ABIs (`@shroud/core/abi/`, generated from Hardhat's artifacts):
 * every function is a method whose arguments and result the compiler checks against the ABI, events parse
 * into a union discriminated by name, and custom errors decode to their names. The ABI types are abitype's;
 * the value types are ethers' (every integer decodes to a bigint, a struct to a Result read by field name).
 */
import type {
  Abi,
  AbiEvent,
  AbiParameter,
  AbiParametersToPrimitiveTypes,
  AbiParameterToPrimitiveType,
  ExtractAbiErrorNames,
  ExtractAbiEvent,
  ExtractAbiEventNames,
  ExtractAbiFunction,
  ExtractAbiFunctionNames,
} from 'abitype';
import {
  type BaseContract,
  Contract,
  type ContractRunner,
  type ContractTransaction,
  type ContractTransactionResponse,
  type DeferredTopicFilter,
  type FunctionFragment,
  type Indexed,
  type Interface,
  type InterfaceAbi,
  type Log,
  type Overrides,
} from 'ethers';

/** What ethers decodes: abitype types integers of up to 48 bits as numbers, ethers gives bigints for all. */
export type Decoded<T> = T extends number
  ? bigint
  : T extends readonly unknown[]
    ? { readonly [K in keyof T]: Decoded<T[K]> }
    : T extends object
      ? { readonly [K in keyof T]: Decoded<T[K]> }
      : T;

/**
 * What ethers encodes: any integer as a number or a bigint, an address or bytes as a 0x string, and a fixed
 * array longer than 4 as any array (ethers checks its length when encoding; a 64-tuple type helps no caller).
 */
export type Encodable<T> = T extends number | bigint
  ? number | bigint
  : T extends `0x${string}`
    ? string
    : T extends readonly unknown[]
      ? number extends T['length']
        ? readonly Encodable<T[number]>[]
        : T['length'] extends 0 | 1 | 2 | 3 | 4
          ? { readonly [K in keyof T]: Encodable<T[K]> }
          : readonly Encodable<T[number]>[]
      : T extends object
        ? { readonly [K in keyof T]: Encodable<T[K]> }
        : T;

type Fn<A extends Abi, N extends string> = ExtractAbiFunction<A, N>;

/** The arguments of function `N`, as ethers takes them. */
export type FunctionArgs<A extends Abi, N extends FunctionName<A>> = ArgsOf<Fn<A, N>['inputs']>;
type ArgsOf<P extends readonly AbiParameter[]> = P extends readonly [
  infer H extends AbiParameter,
  ...infer T extends readonly AbiParameter[],
]
  ? [Encodable<AbiParameterToPrimitiveType<H, 'inputs'>>, ...ArgsOf<T>]
  : [];

/** Named outputs, readable by name on ethers' Result (unnamed ones only by position). */
type NamedOutputs<P extends readonly AbiParameter[]> = {
  readonly [O in P[number] as O['name'] extends '' | undefined ? never : O['name'] & string]: Decoded<
    AbiParameterToPrimitiveType<O, 'outputs'>
  >;
};

/**
 * What a call of function `N` resolves to, as ethers returns it: nothing, the only output itself, or a Result
 * of several outputs (by position and by name).
 */
export type FunctionResult<A extends Abi, N extends FunctionName<A>> = OutputsOf<Fn<A, N>['outputs']>;
type OutputsOf<P extends readonly AbiParameter[]> = P extends readonly []
  ? undefined
  : P extends readonly [infer O extends AbiParameter]
    ? Decoded<AbiParameterToPrimitiveType<O, 'outputs'>>
    : Decoded<AbiParametersToPrimitiveTypes<P, 'outputs'>> & NamedOutputs<P>;

export type FunctionName<A extends Abi> = ExtractAbiFunctionNames<A>;
/** Functions ethers calls (eth_call): views and pure ones. */
export type ViewName<A extends Abi> = ExtractAbiFunctionNames<A, 'view' | 'pure'>;
/** Functions ethers sends as transactions. */
export type WriteName<A extends Abi> = ExtractAbiFunctionNames<A, 'nonpayable' | 'payable'>;

type WithOverrides<I extends readonly unknown[]> = [...I] | [...I, Overrides];

/** A view: calling it reads. */
export interface ViewMethod<I extends readonly unknown[], R> {
  (...args: WithOverrides<I>): Promise<R>;
  readonly fragment: FunctionFragment;
  staticCall(...args: WithOverrides<I>): Promise<R>;
}

/** A state-changing function: calling it sends a transaction; `staticCall` simulates it. */
export interface WriteMethod<I extends readonly unknown[], R> {
  (...args: WithOverrides<I>): Promise<ContractTransactionResponse>;
  readonly fragment: FunctionFragment;
  staticCall(...args: WithOverrides<I>): Promise<R>;
  estimateGas(...args: WithOverrides<I>): Promise<bigint>;
  populateTransaction(...args: WithOverrides<I>): Promise<ContractTransaction>;
}

/** An indexed parameter of a topic filter: a value to match, or null for any. */
type TopicArgs<P extends readonly AbiParameter[]> = P extends readonly [
  infer H extends AbiParameter,
  ...infer T extends readonly AbiParameter[],
]
  ? H extends { indexed: true }
    ? [(Encodable<AbiParameterToPrimitiveType<H, 'inputs'>> | null)?, ...TopicArgs<T>]
    : TopicArgs<T>
  : [];

/** An event's arguments by name; an indexed dynamic value (string, bytes, array, struct) is only its hash. */
export type EventArgs<E extends AbiEvent> = {
  readonly [P in E['inputs'][number] as P['name'] & string]: P extends {
    indexed: true;
    type: 'string' | 'bytes' | 'tuple' | `${string}]`;
  }
    ? Indexed
    : Decoded<AbiParameterToPrimitiveType<P, 'inputs'>>;
};

/** A parsed log of the contract: `name` narrows `args`. */
export type ParsedEvent<A extends Abi> = {
  [N in ExtractAbiEventNames<A>]: { name: N; args: EventArgs<ExtractAbiEvent<A, N>> };
}[ExtractAbiEventNames<A>];

/** The custom errors of the ABI, by name. */
export type ErrorName<A extends Abi> = ExtractAbiErrorNames<A>;
/** What ethers decodes revert data into: one of the ABI's errors, or Solidity's built-in Error(string) and Panic. */
export type RevertName<A extends Abi> = ErrorName<A> | 'Error' | 'Panic';

/** An ethers Contract whose functions, filters and `connect` are typed by `A`; no unknown name type-checks. */
export type TypedContract<A extends Abi> = Omit<BaseContract, 'connect' | 'filters' | 'getFunction'> & {
  readonly filters: {
    readonly [N in ExtractAbiEventNames<A>]: (
      ...topics: TopicArgs<ExtractAbiEvent<A, N>['inputs']>
    ) => DeferredTopicFilter;
  };
  connect(runner: ContractRunner | null): TypedContract<A>;
} & {
  readonly [N in ViewName<A>]: ViewMethod<FunctionArgs<A, N>, FunctionResult<A, N>>;
} & {
  readonly [N in WriteName<A>]: WriteMethod<FunctionArgs<A, N>, FunctionResult<A, N>>;
};

/** `new Contract(address, abi, runner)`, typed by the ABI. */
export function typedContract<const A extends Abi>(
  address: string,
  abi: A,
  runner: ContractRunner | null = null,
): TypedContract<A> {
  return new Contract(address, abi as InterfaceAbi, runner) as unknown as TypedContract<A>;
}

/** View `fn` of `contract`, picked by name at run time (one retry or error wrapper serving many views). */
export function viewOf<A extends Abi, N extends ViewName<A>>(
  contract: TypedContract<A>,
  fn: N,
): ViewMethod<FunctionArgs<A, N>, FunctionResult<A, N>> {
  return (contract as unknown as BaseContract).getFunction(fn) as never;
}

/** Write `fn` of `contract`, picked by name at run time (one send-and-wait wrapper serving many writes). */
export function writeOf<A extends Abi, N extends WriteName<A>>(
  contract: TypedContract<A>,
  fn: N,
): WriteMethod<FunctionArgs<A, N>, FunctionResult<A, N>> {
  return (contract as unknown as BaseContract).getFunction(fn) as never;
}

/** `log` decoded by the contract's ABI; null when it is not one of its events. */
export function parseEvent<A extends Abi>(contract: TypedContract<A>, log: Log): ParsedEvent<A> | null {
  let p: ReturnType<Interface['parseLog']>;
  try {
    p = contract.interface.parseLog(log);
  } catch {
    return null;
  }
  return p ? ({ name: p.name, args: p.args } as unknown as ParsedEvent<A>) : null;
}

/**
 * The revert data an error carries, wherever the provider put it: ethers' JSON-RPC errors and Hardhat's
 * in-process SolidityError as `data`, ethers nested under `info.error`, and a node's raw error as
 * `data: { reason, data }` (EDR's shape when it cannot name the contract's error itself). Undefined when none.
 */
export function revertData(e: unknown): string | undefined {
  const err = e as { data?: unknown; info?: { error?: { data?: unknown } } } | null | undefined;
  const raw = err?.data;
  const nested = typeof raw === 'object' && raw !== null ? (raw as { data?: unknown }).data : undefined;
  const data = typeof raw === 'string' ? raw : (nested ?? err?.info?.error?.data);
  return typeof data === 'string' && /^0x[0-9a-fA-F]{8}/.test(data) ? data : undefined;
}

/**
 * The custom error a call reverted with, decoded by `contract`'s ABI: from ethers' own decoding (`revert`), or
 * from the revert data (`revertData`). Undefined when the data names none of its errors.
 */
export function revertName<A extends Abi>(contract: TypedContract<A>, e: unknown): RevertName<A> | undefined {
  const err = e as { revert?: { name?: string } } | null | undefined;
  if (err?.revert?.name) return err.revert.name as RevertName<A>;
  const data = revertData(e);
  if (data === undefined) return undefined;
  try {
    return contract.interface.parseError(data)?.name as RevertName<A> | undefined;
  } catch {
    return undefined;
  }
}
