// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice Batched payouts from the treasury (EIP-7702; docs/CUSTODY.md, "Batched payouts"). The treasury
/// delegates to this contract once; the service then sends one transaction from the treasury to the treasury
/// calling `payMany`, which runs as the treasury's own code and transfers each amount to each recipient, so
/// every transfer's sender is the treasury and no allowance exists. Only the treasury itself may call it:
/// a delegation gives no one else anything. All or nothing: one failing transfer reverts the whole batch.
/// No storage, no owner, no upgrade.
contract PayoutBatcher {
    error NotAllowed();
    error LengthMismatch();
    error TransferFailed(uint256 index);

    /// Transfers `amounts[i]` of `token` to `recipients[i]`, each in turn. Works with tokens whose
    /// `transfer` returns nothing (mainnet USDT).
    function payMany(address token, address[] calldata recipients, uint256[] calldata amounts) external {
        if (msg.sender != address(this)) revert NotAllowed();
        if (recipients.length != amounts.length) revert LengthMismatch();
        for (uint256 i; i < recipients.length; ++i) {
            (bool ok, bytes memory ret) = token.call(abi.encodeWithSelector(0xa9059cbb, recipients[i], amounts[i]));
            if (!ok || (ret.length != 0 && !abi.decode(ret, (bool)))) revert TransferFailed(i);
        }
    }

    /// The delegated treasury still takes native coin (gas funding) as a plain address does.
    receive() external payable {}
}
