// The report page: the data (report_data.cpp), escaped for a
// <script type="application/json"> element, and the page script and style
// (report_assets/, embedded at build time). The page's Content-Security-
// Policy allows exactly that script and that style (by their SHA-256) and no
// other source of anything, so it loads nothing from the network, and even a
// string that escaped the data element could not run as a script.
#include "bundle/report_html.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/Base64.h>
#include <llvm/Support/SHA256.h>

namespace fbc::bundle {
namespace {

#include "report_assets/report_css.inc"
#include "report_assets/report_js.inc"

// 'sha256-<base64>' of `text`, for the CSP.
std::string cspHash(std::string_view text) {
  std::array<uint8_t, 32> digest = llvm::SHA256::hash(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(text.data()), text.size()));
  return "'sha256-" + llvm::encodeBase64(digest) + "'";
}

} // namespace

std::string escapeJsonForScript(const std::string &json) {
  std::string out;
  out.reserve(json.size() + json.size() / 16);
  for (size_t i = 0; i < json.size(); ++i) {
    char c = json[i];
    if (c == '<')
      out += "\\u003c";
    else if (c == '>')
      out += "\\u003e";
    else if (c == '&')
      out += "\\u0026";
    else if (c == '\xE2' && i + 2 < json.size() && json[i + 1] == '\x80' &&
             (json[i + 2] == '\xA8' || json[i + 2] == '\xA9')) {
      out += json[i + 2] == '\xA8' ? "\\u2028" : "\\u2029";
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

llvm::Expected<std::string> renderReport(const Contents &c, const std::string &bundleName,
                                         const ReportLimits &limits,
                                         std::vector<std::string> *cuts) {
  llvm::Expected<std::string> data = reportData(c, bundleName, limits, cuts);
  if (!data)
    return data.takeError();
  std::string_view js(kReportJS, sizeof kReportJS - 1);
  std::string_view css(kReportCSS, sizeof kReportCSS - 1);
  std::string page;
  page.reserve(data->size() + js.size() + css.size() + 1024);
  page += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src ";
  page += cspHash(js);
  page += "; style-src ";
  page += cspHash(css);
  page += "; img-src data:; base-uri 'none'; form-action 'none'\">\n"
          "<meta name=\"generator\" content=\"fbc report\">\n<title>fbc report</title>\n<style>";
  page += css;
  page += "</style>\n</head>\n<body>\n<noscript>This report is drawn by its embedded script; "
          "enable JavaScript to read it.</noscript>\n<div id=\"app\"></div>\n"
          "<script type=\"application/json\" id=\"fbc-data\">";
  page += escapeJsonForScript(*data);
  page += "</script>\n<script>";
  page += js;
  page += "</script>\n</body>\n</html>\n";
  return page;
}

} // namespace fbc::bundle
