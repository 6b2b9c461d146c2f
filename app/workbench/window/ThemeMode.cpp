#include "ThemeMode.h"

#include <QApplication>
#include <QPalette>
#include <QSettings>
#include <QStyle>

namespace cnp::wb {

namespace {
const char* kThemeKey = "view/theme";
ThemeMode g_current = ThemeMode::System;

// The platform's palette, captured before the workbench first replaces it.
const QPalette& systemPalette() {
    static const QPalette p = QApplication::palette();
    return p;
}

QPalette darkPalette() {
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x30), base(0x1e, 0x1f, 0x22), text(0xdf, 0xe1, 0xe5);
    const QColor disabled(0x7a, 0x7d, 0x82);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2b));
    p.setColor(QPalette::ToolTipBase, QColor(0x3c, 0x3f, 0x44));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x36, 0x39, 0x3d));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::white);
    p.setColor(QPalette::Light, QColor(0x4a, 0x4d, 0x52));
    p.setColor(QPalette::Midlight, QColor(0x40, 0x43, 0x48));
    p.setColor(QPalette::Mid, QColor(0x5c, 0x5f, 0x66));
    p.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1b));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Highlight, QColor(0x35, 0x74, 0xf0));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x6e, 0xa8, 0xfe));
    p.setColor(QPalette::LinkVisited, QColor(0xb3, 0x8c, 0xf2));
    for (QPalette::ColorRole r : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, r, disabled);
    return p;
}
} // namespace

QString themeKey(ThemeMode mode) {
    switch (mode) {
    case ThemeMode::Light:
        return QStringLiteral("light");
    case ThemeMode::Dark:
        return QStringLiteral("dark");
    case ThemeMode::System:
        break;
    }
    return QStringLiteral("system");
}

std::optional<ThemeMode> themeFromKey(const QString& key) {
    for (ThemeMode m : {ThemeMode::System, ThemeMode::Light, ThemeMode::Dark})
        if (key.compare(themeKey(m), Qt::CaseInsensitive) == 0)
            return m;
    return std::nullopt;
}

QPalette themePalette(ThemeMode mode) {
    switch (mode) {
    case ThemeMode::Light:
        return QApplication::style()->standardPalette();
    case ThemeMode::Dark:
        return darkPalette();
    case ThemeMode::System:
        break;
    }
    return systemPalette();
}

void applyTheme(ThemeMode mode) {
    systemPalette(); // captured before the first change
    g_current = mode;
    QApplication::setPalette(themePalette(mode));
}

ThemeMode currentTheme() {
    return g_current;
}

ThemeMode savedTheme() {
    return themeFromKey(QSettings().value(kThemeKey).toString()).value_or(ThemeMode::System);
}

void saveTheme(ThemeMode mode) {
    QSettings().setValue(kThemeKey, themeKey(mode));
}

} // namespace cnp::wb
