// SPDX-License-Identifier: UNLICENSED
pragma solidity ^0.8.24;

interface IPoolCollateral {
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
    function approve(address spender, uint256 amount) external returns (bool);
}

interface IPoolConditionalTokens {
    function getPositionId(address collateral, bytes32 conditionId, uint256 indexSet) external pure returns (uint256);
    function balanceOf(address owner, uint256 id) external view returns (uint256);
    function payoutDenominator(bytes32 conditionId) external view returns (uint256);
    function splitPosition(address collateral, bytes32 conditionId, uint256 amount) external;
    function mergePositions(address collateral, bytes32 conditionId, uint256 amount) external;
    function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes calldata data) external;
    function safeBatchTransferFrom(
        address from,
        address to,
        uint256[] calldata ids,
        uint256[] calldata values,
        bytes calldata data
    ) external;
}

/// @title AmmPool
/// @notice A fixed-product market maker over the two outcome tokens of one binary condition, after
///         Gnosis' FixedProductMarketMaker, reduced to two outcomes and one liquidity provider (the
///         operator). The pool's balances are the outcome tokens it holds; a trade keeps
///         balance0 * balance1 from falling (every division rounds in the pool's favour).
/// @dev Rounding (mirrored to the wei by src/amm/pool-math.ts, explained in docs/amm.md):
///      buy:  fee = floor(x * feeBps / 10000); n = x - fee;
///            shares = b_k + n - ceil(b_k * b_o / (b_o + n))
///      sell: r' = floor(r * 10000 / (10000 - feeBps)); fee = r' - r;
///            shares = r' + ceil(b_k * b_o / (b_o - r')) - b_k
///      k is the traded outcome, o the other one. Fees stay in the pool as collateral and leave
///      only with the liquidity they belong to (removeFunding).
contract AmmPool {
    uint256 public constant BPS = 10_000;
    uint256 public constant MAX_FEE_BPS = 1_000;

    IPoolConditionalTokens public immutable conditionalTokens;
    IPoolCollateral public immutable collateral;
    bytes32 public immutable conditionId;
    uint256 public immutable feeBps;
    address public immutable operator;
    uint256 private immutable _position0;
    uint256 private immutable _position1;

    /// @notice Liquidity shares, all held by the operator (the only funder).
    uint256 public totalShares;
    /// @notice Collateral the pool holds from trade fees; paid out with removed liquidity.
    uint256 public collectedFees;
    bool public paused;
    bool public closed;
    uint256 private _entered = 1;

    event Buy(
        address indexed buyer, uint256 investmentAmount, uint256 feeAmount, uint256 indexed outcomeIndex, uint256 outcomeTokensBought
    );
    event Sell(
        address indexed seller, uint256 returnAmount, uint256 feeAmount, uint256 indexed outcomeIndex, uint256 outcomeTokensSold
    );
    event FundingAdded(address indexed funder, uint256 addedFunds, uint256 sharesMinted, uint256 sentBack0, uint256 sentBack1);
    event FundingRemoved(address indexed funder, uint256 sharesBurnt, uint256 amount0, uint256 amount1, uint256 feesPaid);
    event PausedSet(bool paused);
    event Closed();

    modifier onlyOperator() {
        require(msg.sender == operator, "Pool: operator only");
        _;
    }

    modifier nonReentrant() {
        require(_entered == 1, "Pool: reentrant call");
        _entered = 2;
        _;
        _entered = 1;
    }

    modifier tradable() {
        require(!closed, "Pool: closed");
        require(!paused, "Pool: paused");
        require(conditionalTokens.payoutDenominator(conditionId) == 0, "Pool: condition resolved");
        _;
    }

    constructor(address conditionalTokens_, address collateral_, bytes32 conditionId_, uint256 feeBps_, address operator_) {
        require(feeBps_ <= MAX_FEE_BPS, "Pool: fee too high");
        require(operator_ != address(0), "Pool: zero operator");
        conditionalTokens = IPoolConditionalTokens(conditionalTokens_);
        collateral = IPoolCollateral(collateral_);
        conditionId = conditionId_;
        feeBps = feeBps_;
        operator = operator_;
        _position0 = IPoolConditionalTokens(conditionalTokens_).getPositionId(collateral_, conditionId_, 1);
        _position1 = IPoolConditionalTokens(conditionalTokens_).getPositionId(collateral_, conditionId_, 2);
    }

    // ---- reads ----

    function positionId(uint256 outcomeIndex) public view returns (uint256) {
        require(outcomeIndex < 2, "Pool: invalid outcome");
        return outcomeIndex == 0 ? _position0 : _position1;
    }

    function poolBalances() public view returns (uint256 balance0, uint256 balance1) {
        balance0 = conditionalTokens.balanceOf(address(this), _position0);
        balance1 = conditionalTokens.balanceOf(address(this), _position1);
    }

    /// @notice Everything a quote needs in one call, so an off-chain cache costs one eth_call a block.
    function poolState()
        external
        view
        returns (
            uint256 balance0,
            uint256 balance1,
            uint256 fee,
            uint256 shares,
            uint256 fees,
            bool isPaused,
            bool isClosed,
            bool resolved
        )
    {
        (balance0, balance1) = poolBalances();
        return (
            balance0, balance1, feeBps, totalShares, collectedFees, paused, closed,
            conditionalTokens.payoutDenominator(conditionId) != 0
        );
    }

    /// @notice Outcome tokens `investmentAmount` collateral buys now, fee included.
    function calcBuyAmount(uint256 investmentAmount, uint256 outcomeIndex) public view returns (uint256) {
        (uint256 buyBalance, uint256 otherBalance) = _balancesOf(outcomeIndex);
        require(buyBalance > 0 && otherBalance > 0, "Pool: no liquidity");
        uint256 net = investmentAmount - (investmentAmount * feeBps) / BPS;
        uint256 ending = _ceilDiv(buyBalance * otherBalance, otherBalance + net);
        return buyBalance + net - ending;
    }

    /// @notice Outcome tokens the pool must take to pay `returnAmount` collateral, fee included.
    function calcSellAmount(uint256 returnAmount, uint256 outcomeIndex) public view returns (uint256) {
        (uint256 sellBalance, uint256 otherBalance) = _balancesOf(outcomeIndex);
        uint256 gross = (returnAmount * BPS) / (BPS - feeBps);
        require(gross < otherBalance, "Pool: return exceeds liquidity");
        uint256 ending = _ceilDiv(sellBalance * otherBalance, otherBalance - gross);
        return gross + ending - sellBalance;
    }

    // ---- trades ----

    function buy(uint256 investmentAmount, uint256 outcomeIndex, uint256 minOutcomeTokensToBuy)
        external
        nonReentrant
        tradable
    {
        require(investmentAmount > 0, "Pool: zero amount");
        uint256 bought = calcBuyAmount(investmentAmount, outcomeIndex);
        require(bought >= minOutcomeTokensToBuy, "Pool: minimum buy amount not reached");
        require(bought > 0, "Pool: buys nothing");
        require(collateral.transferFrom(msg.sender, address(this), investmentAmount), "Pool: collateral transfer");
        uint256 fee = (investmentAmount * feeBps) / BPS;
        collectedFees += fee;
        uint256 net = investmentAmount - fee;
        require(collateral.approve(address(conditionalTokens), net), "Pool: approve");
        conditionalTokens.splitPosition(address(collateral), conditionId, net);
        conditionalTokens.safeTransferFrom(address(this), msg.sender, positionId(outcomeIndex), bought, "");
        emit Buy(msg.sender, investmentAmount, fee, outcomeIndex, bought);
    }

    /// @dev The seller must have called conditionalTokens.setApprovalForAll(pool, true).
    function sell(uint256 returnAmount, uint256 outcomeIndex, uint256 maxOutcomeTokensToSell)
        external
        nonReentrant
        tradable
    {
        require(returnAmount > 0, "Pool: zero amount");
        uint256 sold = calcSellAmount(returnAmount, outcomeIndex);
        require(sold <= maxOutcomeTokensToSell, "Pool: maximum sell amount exceeded");
        conditionalTokens.safeTransferFrom(msg.sender, address(this), positionId(outcomeIndex), sold, "");
        uint256 fee = (returnAmount * feeBps) / (BPS - feeBps);
        collectedFees += fee;
        conditionalTokens.mergePositions(address(collateral), conditionId, returnAmount + fee);
        require(collateral.transfer(msg.sender, returnAmount), "Pool: collateral transfer");
        emit Sell(msg.sender, returnAmount, fee, outcomeIndex, sold);
    }

    // ---- liquidity (operator only) ----

    /// @notice Adds `addedFunds` collateral at the current prices: the first funding sets both
    ///         balances equal (prices 0.5); later fundings send the funder back the outcome tokens
    ///         that would move the prices.
    function addFunding(uint256 addedFunds) external onlyOperator nonReentrant {
        require(!closed, "Pool: closed");
        require(addedFunds > 0, "Pool: zero amount");
        require(collateral.transferFrom(msg.sender, address(this), addedFunds), "Pool: collateral transfer");
        (uint256 b0, uint256 b1) = poolBalances();
        uint256 minted;
        uint256 back0;
        uint256 back1;
        if (totalShares == 0) {
            minted = addedFunds;
        } else {
            uint256 weight = b0 > b1 ? b0 : b1;
            back0 = addedFunds - (addedFunds * b0) / weight;
            back1 = addedFunds - (addedFunds * b1) / weight;
            minted = (addedFunds * totalShares) / weight;
        }
        require(minted > 0, "Pool: mints no shares");
        totalShares += minted;
        require(collateral.approve(address(conditionalTokens), addedFunds), "Pool: approve");
        conditionalTokens.splitPosition(address(collateral), conditionId, addedFunds);
        _sendPair(msg.sender, back0, back1);
        emit FundingAdded(msg.sender, addedFunds, minted, back0, back1);
    }

    /// @notice Burns `sharesToBurn` for their part of both balances (as outcome tokens) and of the fees.
    function removeFunding(uint256 sharesToBurn) external onlyOperator nonReentrant {
        require(sharesToBurn > 0 && sharesToBurn <= totalShares, "Pool: invalid shares");
        (uint256 b0, uint256 b1) = poolBalances();
        uint256 amount0 = (b0 * sharesToBurn) / totalShares;
        uint256 amount1 = (b1 * sharesToBurn) / totalShares;
        uint256 feesPaid = (collectedFees * sharesToBurn) / totalShares;
        totalShares -= sharesToBurn;
        collectedFees -= feesPaid;
        _sendPair(msg.sender, amount0, amount1);
        if (feesPaid > 0) require(collateral.transfer(msg.sender, feesPaid), "Pool: collateral transfer");
        emit FundingRemoved(msg.sender, sharesToBurn, amount0, amount1, feesPaid);
    }

    function setPaused(bool paused_) external onlyOperator {
        paused = paused_;
        emit PausedSet(paused_);
    }

    /// @notice Ends trading for good; liquidity can still be removed.
    function close() external onlyOperator {
        closed = true;
        emit Closed();
    }

    // ---- ERC-1155 receiver ----

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

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == 0x01ffc9a7 || interfaceId == 0x4e2312e0;
    }

    // ---- internals ----

    function _balancesOf(uint256 outcomeIndex) private view returns (uint256 traded, uint256 other) {
        (uint256 b0, uint256 b1) = poolBalances();
        require(outcomeIndex < 2, "Pool: invalid outcome");
        return outcomeIndex == 0 ? (b0, b1) : (b1, b0);
    }

    function _sendPair(address to, uint256 amount0, uint256 amount1) private {
        if (amount0 == 0 && amount1 == 0) return;
        uint256[] memory ids = new uint256[](2);
        uint256[] memory values = new uint256[](2);
        ids[0] = _position0;
        ids[1] = _position1;
        values[0] = amount0;
        values[1] = amount1;
        conditionalTokens.safeBatchTransferFrom(address(this), to, ids, values, "");
    }

    function _ceilDiv(uint256 a, uint256 b) private pure returns (uint256) {
        return a == 0 ? 0 : (a - 1) / b + 1;
    }
}
