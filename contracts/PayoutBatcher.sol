// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice Batched payouts (docs/CUSTODY.md, "Batched payouts"). The treasury approves this contract once; the
/// service then sends one transaction from the treasury calling `payMany`, which moves each amount from the
/// caller to each recipient out of the allowance the caller gave it. It only ever spends its caller's own
/// allowance, so an allowance given to it gives no one else anything. The treasury stays a plain account (no
/// EIP-7702 delegation: nodes keep a delegated account to one transaction in flight). All or nothing: one failing
/// transfer reverts the whole batch. No storage, no owner, no upgrade.
contract PayoutBatcher {
    error NoToken();
    error LengthMismatch();
    error TransferFailed(uint256 index);

    /// Transfers `amounts[i]` of `token` from the caller to `recipients[i]`, each in turn. Works with tokens whose
    /// `transferFrom` returns nothing (mainnet USDT).
    function payMany(address token, address[] calldata recipients, uint256[] calldata amounts) external {
        // A call to an address without code succeeds and does nothing: never a silent batch.
        if (token.code.length == 0) revert NoToken();
        if (recipients.length != amounts.length) revert LengthMismatch();
        for (uint256 i; i < recipients.length; ++i) {
            (bool ok, bytes memory ret) =
                token.call(abi.encodeWithSelector(0x23b872dd, msg.sender, recipients[i], amounts[i]));
            if (!ok || (ret.length != 0 && !abi.decode(ret, (bool)))) revert TransferFailed(i);
        }
    }
}
