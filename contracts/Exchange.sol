// SPDX-License-Identifier: UNLICENSED
pragma solidity ^0.8.24;

import {ConditionalTokens} from "./ConditionalTokens.sol";
import {Collateral} from "./Collateral.sol";

interface IERC1271 {
    function isValidSignature(bytes32 digest, bytes calldata signature) external view returns (bytes4);
}

/// @title Exchange
/// @notice Settles matches of EIP-712 signed orders on binary outcome tokens (design after
///         Polymarket's CTF exchange, written for this project). An off-chain matcher (the
///         operator) submits one taker order against one or more maker orders, with what each
///         order gives and gets; the contract checks every signature, nonce, expiry, counterparty
///         restriction, remaining amount, signed price and the conservation of each leg, and that
///         the taker order was never the taker of an earlier match, then moves collateral and
///         outcome tokens.
/// @dev Every order of a match comes with a `Fill`: `making`, what it gives (collateral wei for a
///      BUY, outcome-token wei for a SELL) and `taking`, what it gets (tokens for a BUY, collateral
///      for a SELL). The contract computes neither; it checks them: the signed price holds exactly
///      (`taking * makerAmount >= making * takerAmount`, no rounding), `making` fits the order's
///      remaining (maker-amount units), and each maker leg conserves assets with the taker's side
///      of it (transfer: same collateral, same tokens; mint: the two collaterals sum to the minted
///      amount; merge: the merged amount splits into the two receipts). The taker's `Fill` must be
///      exactly the sum of its sides of the legs. Fees: see `_fee`.
contract Exchange {
    struct Order {
        uint256 salt;
        address maker;
        address signer;
        address taker;
        uint256 tokenId;
        uint256 makerAmount;
        uint256 takerAmount;
        uint256 expiration;
        uint256 nonce;
        uint256 feeRateBps;
        uint8 side;
        uint8 signatureType;
        bytes signature; // not part of the signed struct
    }

    struct OrderStatus {
        bool isFilledOrCancelled;
        // Settled as the taker of a match. The off-chain engine makes an order the taker of one
        // match at most (on arrival), so a second one is a copy: a re-send while the first was
        // still pending. `isFilledOrCancelled` alone does not refuse it: a BUY's remaining is in
        // collateral at its limit, and one that bought below its limit has enough left for a copy.
        bool matchedAsTaker;
        // Maker-amount units left; 0 with !isFilledOrCancelled = never filled. 240 bits, so that the
        // whole status is one storage slot: a match writes it once, the taker record costs no gas.
        uint240 remaining;
    }

    struct TokenInfo {
        uint256 complement;
        bytes32 conditionId;
    }

    /// @dev What an order gives (`making`, its maker-amount units) and gets (`taking`) in one match.
    struct Fill {
        uint256 making;
        uint256 taking;
    }

    /// @dev One match of `matchOrdersBatch`: the arguments of one `matchOrders` call.
    struct Match {
        Order takerOrder;
        Order[] makerOrders;
        Fill takerFill;
        Fill[] makerFills;
    }

    /// @dev The taker's sides of the maker legs so far, and the fees it owes and sellers paid.
    struct Totals {
        uint256 given;
        uint256 received;
        uint256 takerFee;
        uint256 feesHeld;
    }

    uint8 public constant BUY = 0;
    uint8 public constant SELL = 1;
    uint8 public constant EOA = 0;
    uint8 public constant EIP1271 = 1;
    uint256 public constant MAX_FEE_RATE_BPS = 1000;
    /// @notice Gas of one match of `matchOrdersBatch`: MATCH_GAS_BASE + MATCH_GAS_PER_MAKER per maker
    ///         (about twice what an honest match uses). A match that needs more runs out alone.
    uint256 public constant MATCH_GAS_BASE = 400_000;
    uint256 public constant MATCH_GAS_PER_MAKER = 200_000;
    /// @notice Gas an EIP-1271 `isValidSignature` may use; past it the signature is invalid.
    uint256 public constant WALLET_CALL_GAS = 60_000;
    /// @notice Revert data kept of a refused match (Error(string) of up to ~190 characters).
    uint256 private constant MAX_REASON_BYTES = 260;
    bytes32 public constant ORDER_TYPEHASH = keccak256(
        "Order(uint256 salt,address maker,address signer,address taker,uint256 tokenId,uint256 makerAmount,uint256 takerAmount,uint256 expiration,uint256 nonce,uint256 feeRateBps,uint8 side,uint8 signatureType)"
    );
    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    // secp256k1n / 2: signatures with a larger s are the malleable twin and are refused.
    uint256 private constant HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0;

    Collateral public immutable collateral;
    ConditionalTokens public immutable ctf;
    address public admin;
    address public feeRecipient;
    bool public paused;
    bool private _entered;

    mapping(address => bool) public isOperator;
    mapping(address => uint256) public nonces;
    mapping(bytes32 => OrderStatus) private _status;
    mapping(bytes32 => bool) public cancelled;
    mapping(uint256 => TokenInfo) public registry;

    event OrderFilled(
        bytes32 indexed orderHash,
        address indexed maker,
        address indexed counterparty,
        uint256 makerAssetId,
        uint256 takerAssetId,
        uint256 making,
        uint256 taking,
        uint256 fee
    );
    event OrdersMatched(
        bytes32 indexed takerOrderHash, address indexed takerMaker, uint256 given, uint256 received, uint256 makerCount
    );
    /// @dev A match of `matchOrdersBatch` that was refused and rolled back alone (`reason`: its revert data).
    event MatchFailed(bytes32 indexed takerOrderHash, bytes reason);
    event OrderCancelled(bytes32 indexed orderHash, address indexed maker);
    event NonceIncremented(address indexed maker, uint256 newNonce);
    event ConditionRegistered(bytes32 indexed conditionId, uint256 yesTokenId, uint256 noTokenId);
    event OperatorSet(address indexed operator, bool enabled);
    event PausedSet(bool paused);
    event FeeRecipientSet(address feeRecipient);

    modifier onlyAdmin() {
        require(msg.sender == admin, "Exchange: not admin");
        _;
    }

    modifier onlyOperator() {
        require(isOperator[msg.sender], "Exchange: not operator");
        _;
    }

    modifier nonReentrant() {
        require(!_entered, "Exchange: reentrant");
        _entered = true;
        _;
        _entered = false;
    }

    constructor(Collateral collateral_, ConditionalTokens ctf_, address feeRecipient_) {
        collateral = collateral_;
        ctf = ctf_;
        admin = msg.sender;
        feeRecipient = feeRecipient_;
        isOperator[msg.sender] = true;
        emit OperatorSet(msg.sender, true);
        // The exchange splits collateral into positions for mint matches.
        collateral_.approve(address(ctf_), type(uint256).max);
    }

    // ---- administration ----

    function setOperator(address operator, bool enabled) external onlyAdmin {
        isOperator[operator] = enabled;
        emit OperatorSet(operator, enabled);
    }

    function setPaused(bool paused_) external onlyAdmin {
        paused = paused_;
        emit PausedSet(paused_);
    }

    function setFeeRecipient(address feeRecipient_) external onlyAdmin {
        feeRecipient = feeRecipient_;
        emit FeeRecipientSet(feeRecipient_);
    }

    /// @notice Makes the condition's YES and NO positions tradable and links them as complements.
    function registerCondition(bytes32 conditionId) external onlyOperator {
        require(ctf.getOutcomeSlotCount(conditionId) == 2, "Exchange: condition not prepared");
        uint256 no = ctf.getPositionId(address(collateral), conditionId, 1);
        uint256 yes = ctf.getPositionId(address(collateral), conditionId, 2);
        registry[no] = TokenInfo(yes, conditionId);
        registry[yes] = TokenInfo(no, conditionId);
        emit ConditionRegistered(conditionId, yes, no);
    }

    // ---- makers' own controls ----

    /// @notice Voids every order of the caller signed with the current nonce.
    function incrementNonce() external {
        uint256 next = ++nonces[msg.sender];
        emit NonceIncremented(msg.sender, next);
    }

    function cancelOrder(Order calldata order) external {
        require(order.maker == msg.sender, "Exchange: not maker");
        bytes32 orderHash = hashOrder(order);
        OrderStatus storage status = _status[orderHash];
        require(!status.isFilledOrCancelled, "Exchange: order filled or cancelled");
        status.isFilledOrCancelled = true;
        cancelled[orderHash] = true;
        emit OrderCancelled(orderHash, msg.sender);
    }

    // ---- views ----

    function domainSeparator() public view returns (bytes32) {
        return keccak256(
            abi.encode(DOMAIN_TYPEHASH, keccak256("ServiceExchange"), keccak256("1"), block.chainid, address(this))
        );
    }

    /// @notice The EIP-712 digest a maker signs for `order`.
    function hashOrder(Order calldata order) public view returns (bytes32) {
        bytes32 structHash = keccak256(
            abi.encode(
                ORDER_TYPEHASH,
                order.salt,
                order.maker,
                order.signer,
                order.taker,
                order.tokenId,
                order.makerAmount,
                order.takerAmount,
                order.expiration,
                order.nonce,
                order.feeRateBps,
                order.side,
                order.signatureType
            )
        );
        return keccak256(abi.encodePacked("\x19\x01", domainSeparator(), structHash));
    }

    function orderStatus(bytes32 orderHash) external view returns (bool isFilledOrCancelled, uint256 remaining) {
        OrderStatus storage status = _status[orderHash];
        return (status.isFilledOrCancelled, status.remaining);
    }

    // ---- matching ----

    /// @param takerFill what the taker order gives and gets in all: the sum of its sides of the legs.
    /// @param makerFills what each maker order gives and gets (one leg per maker; an order may
    ///        appear in several legs).
    function matchOrders(
        Order calldata takerOrder,
        Order[] calldata makerOrders,
        Fill calldata takerFill,
        Fill[] calldata makerFills
    ) external onlyOperator nonReentrant {
        _matchOrders(takerOrder, makerOrders, takerFill, makerFills);
    }

    /// @notice Settles many matches in one transaction, each on its own: a match the contract
    ///         refuses (or that runs out of gas) is rolled back alone, announced in `MatchFailed`
    ///         and reported in the result, so one trader's moved balance fails no other match.
    ///         Each settled match emits what `matchOrders` emits.
    /// @return settled per match, whether it settled; reasons per refused match, its revert data.
    function matchOrdersBatch(Match[] calldata matches)
        external
        onlyOperator
        nonReentrant
        returns (bool[] memory settled, bytes[] memory reasons)
    {
        require(!paused, "Exchange: paused");
        settled = new bool[](matches.length);
        reasons = new bytes[](matches.length);
        for (uint256 i = 0; i < matches.length; i++) {
            uint256 cap = matchGasCap(matches[i].makerOrders.length);
            // Less than the cap left (the operator sent too little): refused unrun, never blamed on an order.
            if (gasleft() < cap + cap / 63 + 30_000) {
                reasons[i] = abi.encodeWithSignature("Error(string)", "Exchange: batch out of gas");
                emit MatchFailed(hashOrder(matches[i].takerOrder), reasons[i]);
                continue;
            }
            // An external call to itself under the match's cap: a revert (or running out) undoes
            // this match's state changes only, and burns at most its cap.
            try this.matchOrdersOfBatch{gas: cap}(matches[i]) {
                settled[i] = true;
            } catch {
                // A prefix only: a wallet's huge revert data must not cost the batch outside the cap.
                reasons[i] = _returnedPrefix();
                emit MatchFailed(hashOrder(matches[i].takerOrder), reasons[i]);
            }
        }
    }

    /// @notice The gas one match of `matchOrdersBatch` may use.
    function matchGasCap(uint256 makers) public pure returns (uint256) {
        return MATCH_GAS_BASE + MATCH_GAS_PER_MAKER * makers;
    }

    /// @dev The first MAX_REASON_BYTES of the last call's revert data.
    function _returnedPrefix() private pure returns (bytes memory reason) {
        uint256 size = MAX_REASON_BYTES;
        assembly {
            if lt(returndatasize(), size) { size := returndatasize() }
        }
        reason = new bytes(size);
        assembly {
            returndatacopy(add(reason, 32), 0, size)
        }
    }

    /// @dev One match of `matchOrdersBatch`, which alone may call it (inside its reentrancy guard).
    function matchOrdersOfBatch(Match calldata m) external {
        require(msg.sender == address(this), "Exchange: batch only");
        _matchOrders(m.takerOrder, m.makerOrders, m.takerFill, m.makerFills);
    }

    function _matchOrders(
        Order calldata takerOrder,
        Order[] calldata makerOrders,
        Fill calldata takerFill,
        Fill[] calldata makerFills
    ) private {
        require(!paused, "Exchange: paused");
        require(makerOrders.length > 0 && makerOrders.length == makerFills.length, "Exchange: bad lengths");
        bytes32 takerHash = _validate(takerOrder);
        _checkPrice(takerOrder, takerFill);
        OrderStatus storage takerStatus = _status[takerHash];
        require(!takerStatus.matchedAsTaker, "Exchange: taker already matched");
        // The status's one storage slot, which `_consume` writes anyway.
        takerStatus.matchedAsTaker = true;
        _consume(takerHash, takerOrder, takerFill.making);
        bool takerBuys = takerOrder.side == BUY;
        // Take the taker's side up front; the legs must use exactly this much.
        _pull(takerOrder.maker, takerBuys ? 0 : takerOrder.tokenId, takerFill.making);

        Totals memory t;
        for (uint256 i = 0; i < makerOrders.length; i++) {
            _fillMaker(takerOrder, makerOrders[i], makerFills[i], t);
        }
        require(t.given == takerFill.making, "Exchange: taker making does not match the legs");
        require(t.received == takerFill.taking, "Exchange: taker taking does not match the legs");
        _payOrder(takerOrder, takerFill.taking, t.takerFee, t);
        if (t.feesHeld > 0) _collateralTo(feeRecipient, t.feesHeld);
        emit OrderFilled(
            takerHash,
            takerOrder.maker,
            address(0),
            takerBuys ? 0 : takerOrder.tokenId,
            takerBuys ? takerOrder.tokenId : 0,
            takerFill.making,
            takerFill.taking,
            t.takerFee
        );
        emit OrdersMatched(takerHash, takerOrder.maker, takerFill.making, takerFill.taking, makerOrders.length);
    }

    /// @dev One maker leg: validate, check price and remaining, derive the taker's side of the leg
    ///      by conservation, take the maker's side, mint/merge if needed, pay the maker.
    function _fillMaker(Order calldata taker, Order calldata maker, Fill calldata fill, Totals memory t) private {
        require(fill.making > 0, "Exchange: zero fill");
        bytes32 makerHash = _validate(maker);
        require(maker.taker == address(0) || maker.taker == taker.maker, "Exchange: maker restricted to another taker");
        require(taker.taker == address(0) || taker.taker == maker.maker, "Exchange: taker restricted to another maker");
        _checkPrice(maker, fill);
        _consume(makerHash, maker, fill.making);
        bool makerBuys = maker.side == BUY;

        // The taker's side of this leg follows from the maker's by conservation.
        uint256 legGiven;
        uint256 legReceived;
        bool transfer = maker.tokenId == taker.tokenId;
        if (transfer) {
            require(maker.side != taker.side, "Exchange: same side on one token");
            // The seller's tokens go to the buyer, the buyer's collateral to the seller.
            (legGiven, legReceived) = (fill.taking, fill.making);
        } else {
            require(registry[taker.tokenId].complement == maker.tokenId, "Exchange: tokens not complements");
            require(maker.side == taker.side, "Exchange: complement orders must share a side");
            if (makerBuys) {
                // Mint `taking` pairs: the maker paid `making`, the taker pays the rest; each gets `taking` tokens.
                require(fill.making <= fill.taking, "Exchange: mint price above one");
                (legGiven, legReceived) = (fill.taking - fill.making, fill.taking);
            } else {
                // Merge `making` pairs: the maker takes `taking` collateral, the taker the rest.
                require(fill.taking <= fill.making, "Exchange: merge price above one");
                (legGiven, legReceived) = (fill.making, fill.making - fill.taking);
            }
        }
        t.given += legGiven;
        t.received += legReceived;

        _pull(maker.maker, makerBuys ? 0 : maker.tokenId, fill.making);
        if (!transfer) {
            bytes32 conditionId = registry[taker.tokenId].conditionId;
            if (makerBuys) ctf.splitPosition(address(collateral), conditionId, fill.taking);
            else ctf.mergePositions(address(collateral), conditionId, fill.making);
        }

        uint256 makerFee = _orderFee(maker, fill.making, fill.taking);
        t.takerFee += _orderFee(taker, legGiven, legReceived);
        _payOrder(maker, fill.taking, makerFee, t);
        emit OrderFilled(
            makerHash,
            maker.maker,
            taker.maker,
            makerBuys ? 0 : maker.tokenId,
            makerBuys ? maker.tokenId : 0,
            fill.making,
            fill.taking,
            makerFee
        );
    }

    /// @dev Pays an order what it bought. A seller's fee comes out of its collateral proceeds; a
    ///      buyer's fee is collected in collateral from its wallet on top of the price.
    function _payOrder(Order calldata order, uint256 amount, uint256 fee, Totals memory t) private {
        if (order.side == BUY) {
            ctf.safeTransferFrom(address(this), order.maker, order.tokenId, amount, "");
            if (fee > 0) _collateralFrom(order.maker, feeRecipient, fee);
        } else {
            _collateralTo(order.maker, amount - fee);
            t.feesHeld += fee;
        }
    }

    // ---- checks ----

    /// @dev Everything about an order that does not depend on the fill; returns its hash.
    function _validate(Order calldata order) private view returns (bytes32 orderHash) {
        orderHash = hashOrder(order);
        require(order.expiration == 0 || block.timestamp < order.expiration, "Exchange: order expired");
        require(order.nonce == nonces[order.maker], "Exchange: invalid nonce");
        require(order.feeRateBps <= MAX_FEE_RATE_BPS, "Exchange: fee rate too high");
        require(order.side <= SELL, "Exchange: bad side");
        require(order.makerAmount > 0, "Exchange: zero maker amount");
        require(order.makerAmount <= type(uint240).max, "Exchange: maker amount too large");
        // A price above one (paying more collateral than shares, or selling for more) is nonsense.
        require(
            order.side == BUY ? order.makerAmount <= order.takerAmount : order.takerAmount <= order.makerAmount,
            "Exchange: price above one"
        );
        require(registry[order.tokenId].conditionId != bytes32(0), "Exchange: unknown token");
        require(order.signer == order.maker, "Exchange: signer must be maker");
        require(_validSignature(order.signer, orderHash, order.signatureType, order.signature), "Exchange: invalid signature");
    }

    /// @dev Marks `fill` of the order as used; refuses cancelled, filled or over-filled orders.
    function _consume(bytes32 orderHash, Order calldata order, uint256 fill) private {
        OrderStatus storage status = _status[orderHash];
        require(!status.isFilledOrCancelled, "Exchange: order filled or cancelled");
        uint256 remaining = status.remaining == 0 ? order.makerAmount : status.remaining;
        require(fill <= remaining, "Exchange: fill exceeds remaining");
        remaining -= fill;
        status.remaining = uint240(remaining); // fits: at most makerAmount (_validate)
        if (remaining == 0) status.isFilledOrCancelled = true;
    }

    /// @dev The order gets at least its signed price: taking / making >= takerAmount / makerAmount,
    ///      cross-multiplied exactly (no division, no rounding).
    function _checkPrice(Order calldata order, Fill calldata fill) private pure {
        require(fill.taking * order.makerAmount >= fill.making * order.takerAmount, "Exchange: price worse than signed");
    }

    function _validSignature(address signer, bytes32 digest, uint8 signatureType, bytes calldata signature)
        private
        view
        returns (bool)
    {
        if (signatureType == EOA) return signer != address(0) && _recover(digest, signature) == signer;
        if (signatureType == EIP1271) {
            if (signer.code.length == 0) return false;
            // Capped: a wallet cannot burn the match's gas in its check (out of gas = invalid).
            try IERC1271(signer).isValidSignature{gas: WALLET_CALL_GAS}(digest, signature) returns (bytes4 magic) {
                return magic == IERC1271.isValidSignature.selector;
            } catch {
                return false;
            }
        }
        return false;
    }

    /// @dev 65-byte r||s||v; v may be 27/28 or 0/1; high-s is refused (same rules as src/signing).
    function _recover(bytes32 digest, bytes calldata signature) private pure returns (address) {
        if (signature.length != 65) return address(0);
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            r := calldataload(signature.offset)
            s := calldataload(add(signature.offset, 32))
            v := byte(0, calldataload(add(signature.offset, 64)))
        }
        if (v < 27) v += 27;
        if (v != 27 && v != 28) return address(0);
        if (uint256(s) > HALF_N) return address(0);
        return ecrecover(digest, v, r, s);
    }

    /// @dev The fee of an order giving `making` and getting `taking`: shares and collateral by side.
    function _orderFee(Order calldata order, uint256 making, uint256 taking) private pure returns (uint256) {
        return order.side == BUY ? _fee(order.feeRateBps, taking, making) : _fee(order.feeRateBps, making, taking);
    }

    /// @dev decisions section 3: fee = bps/10000 * min(p, 1 - p) * size. With size `shares` and
    ///      price p = collateral / shares, min(p, 1-p) * size = min(collateral, shares - collateral).
    function _fee(uint256 feeRateBps, uint256 shares, uint256 collateralAmount) private pure returns (uint256) {
        if (feeRateBps == 0) return 0;
        uint256 other = shares - collateralAmount;
        uint256 base = collateralAmount < other ? collateralAmount : other;
        return (feeRateBps * base) / 10_000;
    }

    // ---- asset moves (asset id 0 = collateral) ----

    function _pull(address from, uint256 assetId, uint256 amount) private {
        if (amount == 0) return;
        if (assetId == 0) _collateralFrom(from, address(this), amount);
        else ctf.safeTransferFrom(from, address(this), assetId, amount, "");
    }

    function _collateralFrom(address from, address to, uint256 amount) private {
        require(collateral.transferFrom(from, to, amount), "Exchange: collateral transfer");
    }

    function _collateralTo(address to, uint256 amount) private {
        if (amount > 0) require(collateral.transfer(to, amount), "Exchange: collateral transfer");
    }
    // ---- ERC-1155 receiver: the exchange holds tokens only within one match ----

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
