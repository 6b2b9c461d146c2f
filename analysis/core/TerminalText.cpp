#include "core/TerminalText.h"

namespace cnp {

namespace {

bool isC0OrDel(unsigned char c) {
    return (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f;
}

} // namespace

std::string terminalSafe(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (isC0OrDel(c)) {
            out += '?';
        } else if (c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                   static_cast<unsigned char>(text[i + 1]) <= 0x9F) {
            out += '?';
            ++i;
        } else {
            out += static_cast<char>(c);
        }
    }
    return out;
}

TerminalTextBuffer::~TerminalTextBuffer() {
    if (pendingC2_)
        target_->sputc(static_cast<char>(0xC2));
    target_->pubsync();
}

bool TerminalTextBuffer::put(unsigned char c) {
    if (pendingC2_) {
        pendingC2_ = false;
        if (c >= 0x80 && c <= 0x9F)
            return target_->sputc('?') != traits_type::eof();
        if (target_->sputc(static_cast<char>(0xC2)) == traits_type::eof())
            return false;
    }
    if (c == 0xC2) {
        pendingC2_ = true;
        return true;
    }
    return target_->sputc(isC0OrDel(c) ? '?' : static_cast<char>(c)) != traits_type::eof();
}

TerminalTextBuffer::int_type TerminalTextBuffer::overflow(int_type ch) {
    if (traits_type::eq_int_type(ch, traits_type::eof()))
        return traits_type::not_eof(ch);
    return put(static_cast<unsigned char>(traits_type::to_char_type(ch))) ? ch : traits_type::eof();
}

std::streamsize TerminalTextBuffer::xsputn(const char* s, std::streamsize n) {
    for (std::streamsize i = 0; i < n; ++i)
        if (!put(static_cast<unsigned char>(s[i])))
            return i;
    return n;
}

int TerminalTextBuffer::sync() {
    // A lone 0xC2 stays pending across a flush only if more may follow; at a flush it is kept (the next
    // byte decides), so a flush never splits what the filter decides.
    return target_->pubsync();
}

} // namespace cnp
