#include "core/BoundedJson.h"

#include "core/RapidJson.h"

namespace cnp {

namespace {

// Forwards SAX events to `next` (a Document), refusing an object or array nested deeper than `maxDepth`.
template <typename Next> class DepthLimitedHandler {
public:
    using Ch = char;
    DepthLimitedHandler(Next& next, int maxDepth) : next_(next), maxDepth_(maxDepth) {}

    bool Null() { return next_.Null(); }
    bool Bool(bool b) { return next_.Bool(b); }
    bool Int(int i) { return next_.Int(i); }
    bool Uint(unsigned u) { return next_.Uint(u); }
    bool Int64(std::int64_t i) { return next_.Int64(i); }
    bool Uint64(std::uint64_t u) { return next_.Uint64(u); }
    bool Double(double d) { return next_.Double(d); }
    bool RawNumber(const Ch* s, rapidjson::SizeType n, bool copy) { return next_.RawNumber(s, n, copy); }
    bool String(const Ch* s, rapidjson::SizeType n, bool copy) { return next_.String(s, n, copy); }
    bool Key(const Ch* s, rapidjson::SizeType n, bool copy) { return next_.Key(s, n, copy); }
    bool StartObject() { return enter() && next_.StartObject(); }
    bool EndObject(rapidjson::SizeType members) { return leave() && next_.EndObject(members); }
    bool StartArray() { return enter() && next_.StartArray(); }
    bool EndArray(rapidjson::SizeType elements) { return leave() && next_.EndArray(elements); }

    bool tooDeep() const { return tooDeep_; }

private:
    bool enter() {
        tooDeep_ = ++depth_ > maxDepth_;
        return !tooDeep_;
    }
    bool leave() {
        --depth_;
        return true;
    }

    Next& next_;
    int maxDepth_;
    int depth_ = 0;
    bool tooDeep_ = false;
};

} // namespace

JsonParseOutcome parseBoundedJson(std::string_view json, rapidjson::Document& doc, int maxDepth) {
    JsonParseOutcome out;
    rapidjson::ParseResult result;
    bool tooDeep = false;
    auto generate = [&](rapidjson::Document& target) {
        DepthLimitedHandler<rapidjson::Document> handler(target, maxDepth);
        rapidjson::MemoryStream stream(json.data(), json.size());
        rapidjson::Reader reader;
        result = reader.Parse<rapidjson::kParseIterativeFlag>(stream, handler);
        tooDeep = handler.tooDeep();
        return !result.IsError();
    };
    doc.SetNull();
    doc.Populate(generate);
    if (result.IsError()) {
        doc.SetNull();
        out.offset = result.Offset();
        out.error = tooDeep ? "nested deeper than " + std::to_string(maxDepth) + " levels"
                            : rapidjson::GetParseError_En(result.Code());
        return out;
    }
    out.ok = true;
    return out;
}

} // namespace cnp
