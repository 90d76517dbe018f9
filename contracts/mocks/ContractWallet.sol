// SPDX-License-Identifier: UNLICENSED
pragma solidity ^0.8.24;

/// @title ContractWallet
/// @notice Test-only EIP-1271 smart wallet: an order digest is valid when its owner EOA signed it.
///         Its owner can turn it hostile (`setMode`), to show what the exchange does with a wallet
///         that burns gas or refuses tokens.
contract ContractWallet {
    /// Honest: checks signatures, accepts tokens.
    uint8 public constant HONEST = 0;
    /// `isValidSignature` loops until it runs out of gas.
    uint8 public constant BURN_IN_SIGNATURE = 1;
    /// The ERC-1155 receiver hooks loop until they run out of gas.
    uint8 public constant BURN_IN_RECEIVER = 2;
    /// The ERC-1155 receiver hooks refuse every transfer.
    uint8 public constant REFUSE_TOKENS = 3;
    /// `isValidSignature` answers "not valid" to every signature, its owner's too.
    uint8 public constant REFUSE_SIGNATURE = 4;

    address public immutable owner;
    uint8 public mode;

    constructor(address owner_) {
        owner = owner_;
    }

    function setMode(uint8 mode_) external {
        require(msg.sender == owner, "Wallet: not owner");
        mode = mode_;
    }

    /// @notice Lets the owner approve tokens etc. from the wallet.
    function execute(address target, bytes calldata data) external returns (bytes memory) {
        require(msg.sender == owner, "Wallet: not owner");
        (bool ok, bytes memory result) = target.call(data);
        require(ok, "Wallet: call failed");
        return result;
    }

    function isValidSignature(bytes32 digest, bytes calldata signature) external view returns (bytes4) {
        if (mode == BURN_IN_SIGNATURE) _burnAll();
        if (mode == REFUSE_SIGNATURE || signature.length != 65) return 0xffffffff;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        return ecrecover(digest, v, r, s) == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }

    function onERC1155Received(address, address, uint256, uint256, bytes calldata) external view returns (bytes4) {
        _receiverMode();
        return this.onERC1155Received.selector;
    }

    function onERC1155BatchReceived(address, address, uint256[] calldata, uint256[] calldata, bytes calldata)
        external
        view
        returns (bytes4)
    {
        _receiverMode();
        return this.onERC1155BatchReceived.selector;
    }

    function _receiverMode() private view {
        if (mode == BURN_IN_RECEIVER) _burnAll();
        require(mode != REFUSE_TOKENS, "Wallet: tokens refused");
    }

    /// @dev Loops until the call's gas is gone.
    function _burnAll() private view {
        uint256 spins;
        while (gasleft() > 0) spins += uint256(uint160(address(this)));
    }
}
