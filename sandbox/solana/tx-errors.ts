/**
 * LiteSVM's transaction errors turned into what a real node sends: the serde JSON form of
 * `TransactionError` (kit decodes it into typed errors) and its Display text (used in
 * "Transaction simulation failed: ..."). The name lists follow LiteSVM's fieldless enums in order.
 */

const TX_FIELDLESS = (
  "AccountInUse AccountLoadedTwice AccountNotFound ProgramAccountNotFound InsufficientFundsForFee " +
  "InvalidAccountForFee AlreadyProcessed BlockhashNotFound CallChainTooDeep MissingSignatureForFee " +
  "InvalidAccountIndex SignatureFailure InvalidProgramForExecution SanitizeFailure ClusterMaintenance " +
  "AccountBorrowOutstanding WouldExceedMaxBlockCostLimit UnsupportedVersion InvalidWritableAccount " +
  "WouldExceedMaxAccountCostLimit WouldExceedAccountDataBlockLimit TooManyAccountLocks " +
  "AddressLookupTableNotFound InvalidAddressLookupTableOwner InvalidAddressLookupTableData " +
  "InvalidAddressLookupTableIndex InvalidRentPayingAccount WouldExceedMaxVoteCostLimit " +
  "WouldExceedAccountDataTotalLimit MaxLoadedAccountsDataSizeExceeded ResanitizationNeeded " +
  "InvalidLoadedAccountsDataSizeLimit UnbalancedTransaction ProgramCacheHitMaxLimit CommitCancelled"
).split(" ");

const IX_FIELDLESS = (
  "GenericError InvalidArgument InvalidInstructionData InvalidAccountData AccountDataTooSmall " +
  "InsufficientFunds IncorrectProgramId MissingRequiredSignature AccountAlreadyInitialized " +
  "UninitializedAccount UnbalancedInstruction ModifiedProgramId ExternalAccountLamportSpend " +
  "ExternalAccountDataModified ReadonlyLamportChange ReadonlyDataModified DuplicateAccountIndex " +
  "ExecutableModified RentEpochModified NotEnoughAccountKeys AccountDataSizeChanged AccountNotExecutable " +
  "AccountBorrowFailed AccountBorrowOutstanding DuplicateAccountOutOfSync InvalidError " +
  "ExecutableDataModified ExecutableLamportChange ExecutableAccountNotRentExempt UnsupportedProgramId " +
  "CallDepth MissingAccount ReentrancyNotAllowed MaxSeedLengthExceeded InvalidSeeds InvalidRealloc " +
  "ComputationalBudgetExceeded PrivilegeEscalation ProgramEnvironmentSetupFailure ProgramFailedToComplete " +
  "ProgramFailedToCompile Immutable IncorrectAuthority AccountNotRentExempt InvalidAccountOwner " +
  "ArithmeticOverflow UnsupportedSysvar IllegalOwner MaxAccountsDataAllocationsExceeded MaxAccountsExceeded " +
  "MaxInstructionTraceLengthExceeded BuiltinProgramsMustConsumeComputeUnits BorshIoError"
).split(" ");

const TX_MESSAGES: Record<string, string> = {
  AccountInUse: "Account in use",
  AccountLoadedTwice: "Account loaded twice",
  AccountNotFound: "Attempt to debit an account but found no record of a prior credit.",
  ProgramAccountNotFound: "Attempt to load a program that does not exist",
  InsufficientFundsForFee: "Insufficient funds for fee",
  InvalidAccountForFee: "This account may not be used to pay transaction fees",
  AlreadyProcessed: "This transaction has already been processed",
  BlockhashNotFound: "Blockhash not found",
  MissingSignatureForFee: "Transaction requires a fee but has no signature present",
  InvalidAccountIndex: "Transaction contains an invalid account reference",
  SignatureFailure: "Transaction did not pass signature verification",
  InvalidProgramForExecution: "This program may not be used for executing instructions",
  SanitizeFailure: "Transaction failed to sanitize accounts offsets correctly",
  UnsupportedVersion: "Transaction version is unsupported",
  InvalidWritableAccount: "Transaction loads a writable account that cannot be written",
  TooManyAccountLocks: "Transaction locked too many accounts",
  AddressLookupTableNotFound: "Transaction loads an address table account that doesn't exist",
  InvalidAddressLookupTableOwner: "Transaction loads an address table account with an invalid owner",
  InvalidAddressLookupTableData: "Transaction loads an address table account with invalid data",
  InvalidAddressLookupTableIndex: "Transaction address table lookup uses an invalid index",
  InvalidRentPayingAccount: "Transaction leaves an account with a lower balance than rent-exempt minimum",
  MaxLoadedAccountsDataSizeExceeded: "Transaction exceeded max loaded accounts data size cap",
  UnbalancedTransaction: "Sum of account balances before and after transaction do not match",
};

const IX_MESSAGES: Record<string, string> = {
  GenericError: "generic instruction error",
  InvalidArgument: "invalid program argument",
  InvalidInstructionData: "invalid instruction data",
  InvalidAccountData: "invalid account data for instruction",
  AccountDataTooSmall: "account data too small for instruction",
  InsufficientFunds: "insufficient funds for instruction",
  IncorrectProgramId: "incorrect program id for instruction",
  MissingRequiredSignature: "missing required signature for instruction",
  AccountAlreadyInitialized: "instruction requires an uninitialized account",
  UninitializedAccount: "instruction requires an initialized account",
  UnbalancedInstruction: "sum of account balances before and after instruction do not match",
  ExternalAccountLamportSpend: "instruction spent from the balance of an account it does not own",
  ExternalAccountDataModified: "instruction modified data of an account it does not own",
  ReadonlyLamportChange: "instruction changed the balance of a read-only account",
  ReadonlyDataModified: "instruction modified data of a read-only account",
  NotEnoughAccountKeys: "insufficient account keys for instruction",
  AccountNotExecutable: "instruction expected an executable account",
  MissingAccount: "An account required by the instruction is missing",
  InvalidSeeds: "Provided seeds do not result in a valid address",
  ComputationalBudgetExceeded: "Computational budget exceeded",
  PrivilegeEscalation: "Cross-program invocation with unauthorized signer or writable account",
  ProgramFailedToComplete: "Program failed to complete",
  IncorrectAuthority: "Incorrect authority provided",
  InvalidAccountOwner: "Invalid account owner",
  ArithmeticOverflow: "Program arithmetic overflowed",
  IllegalOwner: "Provided owner is not allowed",
};

/** Solana's JSON form of a TransactionError, e.g. "BlockhashNotFound" or {"InstructionError":[0,{"Custom":1}]}. */
export type TxErrorJson = string | Record<string, unknown>;

interface NativeError {
  constructor: { name: string };
  index?: number;
  accountIndex?: number;
  code?: number;
  msg?: string;
  err?: () => unknown;
}

function instructionErrorJson(inner: unknown): unknown {
  if (typeof inner === "number") return IX_FIELDLESS[inner] ?? "GenericError";
  const e = inner as NativeError;
  if (e.constructor.name === "InstructionErrorCustom") return { Custom: e.code };
  if (e.constructor.name.startsWith("InstructionErrorBorsh")) return e.msg ? { BorshIoError: e.msg } : "BorshIoError";
  return "GenericError";
}

/** Converts the value of LiteSVM's `FailedTransactionMetadata.err()`. */
export function txErrorFromLiteSvm(err: unknown): TxErrorJson {
  if (typeof err === "number") return TX_FIELDLESS[err] ?? "SanitizeFailure";
  const e = err as NativeError;
  switch (e.constructor.name) {
    case "TransactionErrorInstructionError":
      return { InstructionError: [e.index, instructionErrorJson(e.err!())] };
    case "TransactionErrorDuplicateInstruction":
      return { DuplicateInstruction: e.index };
    case "TransactionErrorInsufficientFundsForRent":
      return { InsufficientFundsForRent: { account_index: e.accountIndex } };
    case "TransactionErrorProgramExecutionTemporarilyRestricted":
      return { ProgramExecutionTemporarilyRestricted: { account_index: e.accountIndex } };
    default:
      return "SanitizeFailure";
  }
}

/** The node's Display text for an error, as in "Transaction simulation failed: <text>". */
export function txErrorMessage(err: TxErrorJson): string {
  if (typeof err === "string") return TX_MESSAGES[err] ?? err;
  const [name, value] = Object.entries(err)[0] ?? ["", null];
  if (name === "InstructionError") {
    const [index, inner] = value as [number, unknown];
    let text: string;
    if (typeof inner === "string") text = IX_MESSAGES[inner] ?? inner;
    else if (inner && typeof inner === "object" && "Custom" in inner)
      text = `custom program error: 0x${Number((inner as { Custom: number }).Custom).toString(16)}`;
    else text = `Failed to serialize or deserialize account data: ${String(Object.values(inner as object)[0])}`;
    return `Error processing Instruction ${index}: ${text}`;
  }
  if (name === "InsufficientFundsForRent")
    return (
      `Transaction results in an account (${(value as { account_index: number }).account_index}) ` +
      `with insufficient funds for rent`
    );
  if (name === "DuplicateInstruction")
    return `Transaction contains a duplicate instruction (${String(value)}) that is not allowed`;
  return name;
}
