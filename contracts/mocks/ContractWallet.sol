// SPDX-License-Identifier: UNLICENSED
pragma solidity ^0.8.24;

/// @title ContractWallet
/// @notice Test-only EIP-1271 smart wallet: an order digest is valid when its owner EOA signed it.
contract ContractWallet {
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    /// @notice Lets the owner approve tokens etc. from the wallet.
    function execute(address target, bytes calldata data) external returns (bytes memory) {
        require(msg.sender == owner, "Wallet: not owner");
        (bool ok, bytes memory result) = target.call(data);
        require(ok, "Wallet: call failed");
        return result;
    }

    function isValidSignature(bytes32 digest, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        return ecrecover(digest, v, r, s) == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }

    function onERC1155Received(address, address, uint256, uint256, bytes calldata) external pure returns (bytes4) {
        return this.onERC1155Received.selector;
    }

    function onERC1155BatchReceived(address, address, uint256[] calldata, uint256[] calldata, bytes calldata)
        external
        pure
        returns (bytes4)
    {
        return this.onERC1155BatchReceived.selector;
    }
}
