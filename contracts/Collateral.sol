// SPDX-License-Identifier: UNLICENSED
pragma solidity ^0.8.24;

/// @title Collateral
/// @notice Minimal 18-decimal ERC-20 used as the markets' collateral.
/// @dev On local chains it is deployed with `openMint = true` so developers can fund wallets
///      (decisions section 8); on a real chain `mint` is restricted to the deployer.
contract Collateral {
    string public name;
    string public symbol;
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    bool public immutable openMint;
    address public immutable minter;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory name_, string memory symbol_, bool openMint_) {
        name = name_;
        symbol = symbol_;
        openMint = openMint_;
        minter = msg.sender;
    }

    function mint(address to, uint256 amount) external {
        require(openMint || msg.sender == minter, "Collateral: mint not allowed");
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        _move(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            require(allowed >= amount, "Collateral: allowance");
            allowance[from][msg.sender] = allowed - amount;
        }
        _move(from, to, amount);
        return true;
    }

    function _move(address from, address to, uint256 amount) private {
        require(to != address(0), "Collateral: zero address");
        uint256 balance = balanceOf[from];
        require(balance >= amount, "Collateral: balance");
        unchecked {
            balanceOf[from] = balance - amount;
        }
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
    }
}
