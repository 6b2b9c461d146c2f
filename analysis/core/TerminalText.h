#pragma once
// Text from traces and workspaces (run, configuration and kernel names, environment values) shown on a
// terminal or in HTML with its control characters neutralised (issue 33.7: a name holding ESC or an OSC
// title sequence was printed raw by `cnp runs`, `stats`, `ablation` and `diff`, so a shared workspace could
// retitle, clear or recolour the user's terminal). Every C0 control but newline and tab, DEL, and every C1
// control (U+0080..U+009F, UTF-8 C2 80..C2 9F: 8-bit CSI and OSC) becomes '?'; other bytes pass unchanged.
// The `cnp` command filters its stdout and stderr through TerminalTextBuffer, so no print site can miss
// one; the HTML report escapes through terminalSafe. O(n).
#include <streambuf>
#include <string>
#include <string_view>

namespace cnp {

std::string terminalSafe(std::string_view text);

// A streambuf that forwards to `target` with control characters neutralised as terminalSafe does (a C1
// control split across two writes is still caught). Unbuffered: every write reaches `target` at once.
class TerminalTextBuffer : public std::streambuf {
public:
    explicit TerminalTextBuffer(std::streambuf* target) : target_(target) {}
    ~TerminalTextBuffer() override;

protected:
    int_type overflow(int_type ch) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;
    int sync() override;

private:
    bool put(unsigned char c);
    std::streambuf* target_;
    bool pendingC2_ = false; // the last byte was 0xC2, the lead byte of U+0080..U+00BF
};

} // namespace cnp
