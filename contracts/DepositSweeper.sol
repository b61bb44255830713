// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IBalanceOf {
    function balanceOf(address account) external view returns (uint256);
}

/// @notice Batched sweeps of deposit addresses that never hold gas (EIP-7702; docs/CUSTODY.md, "Sweeps").
/// Each deposit address delegates to this contract once; the service's sweeper then calls `sweepMany` on
/// the contract itself, which calls `sweep` on each deposit address, now running this code as its own.
/// Nothing here can send funds anywhere but `treasury`, fixed at deployment; only `operator` (the sweeper)
/// starts sweeps, so their timing and amounts are the service's journal's alone. No storage, no upgrade.
contract DepositSweeper {
    /// Where every sweep goes.
    address public immutable treasury;
    /// The one account that may call `sweepMany`.
    address public immutable operator;
    /// This contract's own address: under a delegation `address(this)` is the deposit address, this is not.
    address private immutable self;

    error NotAllowed();
    error LengthMismatch();
    error TransferFailed(address account);
    error TreasuryShort();

    constructor(address treasury_, address operator_) {
        treasury = treasury_;
        operator = operator_;
        self = address(this);
    }

    /// Runs as a deposit address's code: moves exactly `amount` of `token` from it to the treasury. Works with
    /// tokens whose `transfer` returns nothing (mainnet USDT). Only this contract's `sweepMany` may call it.
    function sweep(address token, uint256 amount) external {
        if (msg.sender != self) revert NotAllowed();
        (bool ok, bytes memory ret) = token.call(abi.encodeWithSelector(0xa9059cbb, treasury, amount));
        if (!ok || (ret.length != 0 && !abi.decode(ret, (bool)))) revert TransferFailed(address(this));
    }

    /// Sweeps `amounts[i]` of `token` from each delegated `accounts[i]`, all or nothing, and checks that the
    /// treasury received exactly their sum (a member that is not delegated here makes the whole call revert).
    function sweepMany(address token, address[] calldata accounts, uint256[] calldata amounts) external {
        if (msg.sender != operator) revert NotAllowed();
        if (accounts.length != amounts.length) revert LengthMismatch();
        uint256 before = IBalanceOf(token).balanceOf(treasury);
        uint256 total;
        for (uint256 i; i < accounts.length; ++i) {
            DepositSweeper(payable(accounts[i])).sweep(token, amounts[i]);
            total += amounts[i];
        }
        if (IBalanceOf(token).balanceOf(treasury) != before + total) revert TreasuryShort();
    }

    /// A delegated deposit address still takes native coin as a plain address does.
    receive() external payable {}
}
