// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice Storage, mint and balance moves shared by the sandbox tokens; the owner (the sandbox faucet's
/// account) may mint, and may freeze an address, as Tether blacklists one: a frozen address cannot send (as on
/// mainnet), and here cannot receive either, so a transfer to it reverts on chain. `isBlackListed` and
/// `getBlackListStatus` answer as Tether's USDT does on Ethereum and Tron.
abstract contract SandboxTokenBase {
    string public constant name = "Tether USD (sandbox)";
    string public constant symbol = "USDT";
    address public immutable owner;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    mapping(address => bool) public frozen;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor() {
        owner = msg.sender;
    }

    function mint(address to, uint256 value) external {
        require(msg.sender == owner, "only owner");
        totalSupply += value;
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
    }

    function freeze(address account) external {
        require(msg.sender == owner, "only owner");
        frozen[account] = true;
    }

    function unfreeze(address account) external {
        require(msg.sender == owner, "only owner");
        frozen[account] = false;
    }

    function isBlackListed(address account) external view returns (bool) {
        return frozen[account];
    }

    function getBlackListStatus(address account) external view returns (bool) {
        return frozen[account];
    }

    function _approve(address spender, uint256 value) internal {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
    }

    function _spendAndMove(address from, address to, uint256 value) internal {
        uint256 allowed = allowance[from][msg.sender];
        require(allowed >= value, "allowance");
        allowance[from][msg.sender] = allowed - value;
        _move(from, to, value);
    }

    function _move(address from, address to, uint256 value) internal {
        require(to != address(0), "zero address");
        require(!frozen[from], "frozen");
        require(!frozen[to], "frozen");
        require(balanceOf[from] >= value, "balance");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}

/// @notice USDT-like token with standard ERC-20 `bool` returns and decimals chosen at deployment
/// (6 on polygon, 18 on bnb).
contract SandboxUSDT is SandboxTokenBase {
    uint8 public immutable decimals;

    constructor(uint8 decimals_) {
        decimals = decimals_;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _move(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        _approve(spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        _spendAndMove(from, to, value);
        return true;
    }
}

/// @notice Like mainnet USDT on Ethereum: 6 decimals, and `transfer`, `transferFrom` and `approve` return
/// nothing, which trips clients that expect the standard ERC-20 `bool`.
contract SandboxTetherNoReturn is SandboxTokenBase {
    uint8 public constant decimals = 6;

    function transfer(address to, uint256 value) external {
        _move(msg.sender, to, value);
    }

    function approve(address spender, uint256 value) external {
        _approve(spender, value);
    }

    function transferFrom(address from, address to, uint256 value) external {
        _spendAndMove(from, to, value);
    }
}
