// SPDX-License-Identifier: UNLICENSED
pragma solidity ^0.8.24;

interface IERC20Like {
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

interface IERC1155Receiver {
    function onERC1155Received(address, address, uint256, uint256, bytes calldata) external returns (bytes4);
    function onERC1155BatchReceived(address, address, uint256[] calldata, uint256[] calldata, bytes calldata)
        external
        returns (bytes4);
}

/// @title ConditionalTokens
/// @notice ERC-1155 outcome positions for binary conditions, after Gnosis' conditional tokens but
///         reduced to what a binary market needs: one level deep, two outcomes, any ERC-20 collateral.
/// @dev Ids (also computed off chain by src/chain/position-ids.ts):
///      conditionId = keccak256(abi.encodePacked(oracle, questionId, uint256(2)))
///      positionId  = uint256(keccak256(abi.encodePacked(collateral, conditionId, indexSet)))
///      indexSet 1 is outcome 0 (NO), indexSet 2 is outcome 1 (YES).
contract ConditionalTokens {
    uint256 private constant OUTCOMES = 2;
    /// @notice Gas a receiver hook may use: a contract holder cannot burn a transfer's (and so a
    ///         settlement batch's) gas in its hook; a hook that needs more is refused.
    uint256 public constant RECEIVER_GAS = 60_000;

    mapping(uint256 => mapping(address => uint256)) private _balances;
    mapping(address => mapping(address => bool)) public isApprovedForAll;
    /// @notice Payout numerators per condition; empty until prepared, all zero until reported.
    mapping(bytes32 => uint256[]) public payoutNumerators;
    mapping(bytes32 => uint256) public payoutDenominator;

    event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value);
    event TransferBatch(
        address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values
    );
    event ApprovalForAll(address indexed owner, address indexed operator, bool approved);
    event ConditionPreparation(bytes32 indexed conditionId, address indexed oracle, bytes32 indexed questionId);
    event ConditionResolution(bytes32 indexed conditionId, address indexed oracle, bytes32 indexed questionId, uint256[] payouts);
    event PositionSplit(address indexed stakeholder, address collateral, bytes32 indexed conditionId, uint256 amount);
    event PositionsMerge(address indexed stakeholder, address collateral, bytes32 indexed conditionId, uint256 amount);
    event PayoutRedemption(address indexed redeemer, address indexed collateral, bytes32 indexed conditionId, uint256 payout);

    // ---- ids ----

    function getConditionId(address oracle, bytes32 questionId) public pure returns (bytes32) {
        return keccak256(abi.encodePacked(oracle, questionId, OUTCOMES));
    }

    function getPositionId(address collateral, bytes32 conditionId, uint256 indexSet) public pure returns (uint256) {
        return uint256(keccak256(abi.encodePacked(collateral, conditionId, indexSet)));
    }

    function getOutcomeSlotCount(bytes32 conditionId) external view returns (uint256) {
        return payoutNumerators[conditionId].length;
    }

    // ---- conditions ----

    function prepareCondition(address oracle, bytes32 questionId) external {
        bytes32 conditionId = getConditionId(oracle, questionId);
        require(payoutNumerators[conditionId].length == 0, "CTF: condition already prepared");
        payoutNumerators[conditionId] = new uint256[](OUTCOMES);
        emit ConditionPreparation(conditionId, oracle, questionId);
    }

    /// @notice The oracle (msg.sender) resolves its question; payouts [NO, YES], e.g. [0, 1] = YES won.
    function reportPayouts(bytes32 questionId, uint256[] calldata payouts) external {
        require(payouts.length == OUTCOMES, "CTF: need two payouts");
        bytes32 conditionId = getConditionId(msg.sender, questionId);
        require(payoutNumerators[conditionId].length == OUTCOMES, "CTF: condition not prepared");
        require(payoutDenominator[conditionId] == 0, "CTF: already resolved");
        uint256 den = payouts[0] + payouts[1];
        require(den > 0, "CTF: payouts all zero");
        payoutNumerators[conditionId][0] = payouts[0];
        payoutNumerators[conditionId][1] = payouts[1];
        payoutDenominator[conditionId] = den;
        emit ConditionResolution(conditionId, msg.sender, questionId, payouts);
    }

    // ---- collateral <-> positions ----

    /// @notice Locks `amount` collateral and mints `amount` of both outcome tokens to the caller.
    function splitPosition(address collateral, bytes32 conditionId, uint256 amount) external {
        require(payoutNumerators[conditionId].length == OUTCOMES, "CTF: condition not prepared");
        require(payoutDenominator[conditionId] == 0, "CTF: condition resolved");
        require(IERC20Like(collateral).transferFrom(msg.sender, address(this), amount), "CTF: collateral transfer");
        (uint256[] memory ids, uint256[] memory values) = _pair(collateral, conditionId, amount);
        for (uint256 i = 0; i < OUTCOMES; i++) _balances[ids[i]][msg.sender] += amount;
        emit TransferBatch(msg.sender, address(0), msg.sender, ids, values);
        emit PositionSplit(msg.sender, collateral, conditionId, amount);
        _checkBatchReceiver(msg.sender, address(0), msg.sender, ids, values);
    }

    /// @notice Burns `amount` of both outcome tokens of the caller and returns `amount` collateral.
    function mergePositions(address collateral, bytes32 conditionId, uint256 amount) external {
        require(payoutNumerators[conditionId].length == OUTCOMES, "CTF: condition not prepared");
        (uint256[] memory ids, uint256[] memory values) = _pair(collateral, conditionId, amount);
        for (uint256 i = 0; i < OUTCOMES; i++) _burn(msg.sender, ids[i], amount);
        emit TransferBatch(msg.sender, msg.sender, address(0), ids, values);
        emit PositionsMerge(msg.sender, collateral, conditionId, amount);
        require(IERC20Like(collateral).transfer(msg.sender, amount), "CTF: collateral transfer");
    }

    /// @notice After resolution, burns all of the caller's positions of the condition and pays them out.
    function redeemPositions(address collateral, bytes32 conditionId) external {
        uint256 den = payoutDenominator[conditionId];
        require(den > 0, "CTF: condition not resolved");
        uint256 total = 0;
        for (uint256 i = 0; i < OUTCOMES; i++) {
            uint256 id = getPositionId(collateral, conditionId, 1 << i);
            uint256 held = _balances[id][msg.sender];
            if (held == 0) continue;
            _burn(msg.sender, id, held);
            emit TransferSingle(msg.sender, msg.sender, address(0), id, held);
            total += (held * payoutNumerators[conditionId][i]) / den;
        }
        if (total > 0) require(IERC20Like(collateral).transfer(msg.sender, total), "CTF: collateral transfer");
        emit PayoutRedemption(msg.sender, collateral, conditionId, total);
    }

    // ---- ERC-1155 ----

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == 0x01ffc9a7 || interfaceId == 0xd9b67a26;
    }

    /// @notice Standard ERC-1155 argument order: (owner, id).
    function balanceOf(address owner, uint256 id) external view returns (uint256) {
        return _balances[id][owner];
    }

    function balanceOfBatch(address[] calldata owners, uint256[] calldata ids) external view returns (uint256[] memory out) {
        require(owners.length == ids.length, "CTF: length mismatch");
        out = new uint256[](owners.length);
        for (uint256 i = 0; i < owners.length; i++) out[i] = _balances[ids[i]][owners[i]];
    }

    function setApprovalForAll(address operator, bool approved) external {
        isApprovedForAll[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes calldata data) external {
        require(from == msg.sender || isApprovedForAll[from][msg.sender], "CTF: not approved");
        require(to != address(0), "CTF: zero address");
        _burn(from, id, value);
        _balances[id][to] += value;
        emit TransferSingle(msg.sender, from, to, id, value);
        if (to.code.length > 0) {
            bytes4 answer = IERC1155Receiver(to).onERC1155Received{gas: RECEIVER_GAS}(msg.sender, from, id, value, data);
            require(answer == IERC1155Receiver.onERC1155Received.selector, "CTF: receiver rejected");
        }
    }

    function safeBatchTransferFrom(
        address from,
        address to,
        uint256[] calldata ids,
        uint256[] calldata values,
        bytes calldata data
    ) external {
        require(from == msg.sender || isApprovedForAll[from][msg.sender], "CTF: not approved");
        require(to != address(0), "CTF: zero address");
        require(ids.length == values.length, "CTF: length mismatch");
        for (uint256 i = 0; i < ids.length; i++) {
            _burn(from, ids[i], values[i]);
            _balances[ids[i]][to] += values[i];
        }
        emit TransferBatch(msg.sender, from, to, ids, values);
        if (to.code.length > 0) {
            bytes4 answer = IERC1155Receiver(to).onERC1155BatchReceived{gas: RECEIVER_GAS}(msg.sender, from, ids, values, data);
            require(answer == IERC1155Receiver.onERC1155BatchReceived.selector, "CTF: receiver rejected");
        }
    }

    // ---- internals ----

    function _pair(address collateral, bytes32 conditionId, uint256 amount)
        private
        pure
        returns (uint256[] memory ids, uint256[] memory values)
    {
        ids = new uint256[](OUTCOMES);
        values = new uint256[](OUTCOMES);
        for (uint256 i = 0; i < OUTCOMES; i++) {
            ids[i] = getPositionId(collateral, conditionId, 1 << i);
            values[i] = amount;
        }
    }

    function _burn(address from, uint256 id, uint256 value) private {
        uint256 held = _balances[id][from];
        require(held >= value, "CTF: insufficient balance");
        unchecked {
            _balances[id][from] = held - value;
        }
    }

    function _checkBatchReceiver(address operator, address from, address to, uint256[] memory ids, uint256[] memory values)
        private
    {
        if (to.code.length == 0) return;
        bytes4 answer = IERC1155Receiver(to).onERC1155BatchReceived{gas: RECEIVER_GAS}(operator, from, ids, values, "");
        require(answer == IERC1155Receiver.onERC1155BatchReceived.selector, "CTF: receiver rejected");
    }
}
